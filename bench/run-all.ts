/**
 * `npm run bench`: runs every harness named by a `bench:<name>` script of package.json, each as its
 * own process (`npm run bench:<name>`), shows its tables as it goes, then prints one summary table: harness, exit status,
 * wall time, and the headline figures a harness wrote to `bench/out/<name>.summary.json` as
 * `[{ "metric": string, "value": string|number, "target"?: string }]`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const dir = path.dirname(new URL(import.meta.url).pathname);
const outDir = path.join(dir, 'out');
mkdirSync(outDir, { recursive: true });
const scripts: Record<string, string> = JSON.parse(readFileSync(path.join(dir, '..', 'package.json'), 'utf8')).scripts;
const harnesses = Object.keys(scripts)
  .filter((s) => s.startsWith('bench:') && existsSync(path.join(dir, `${s.slice(6)}.ts`)))
  .map((s) => s.slice(6))
  .sort();

interface Row { harness: string; status: string; seconds: string; metric: string; value: string; target: string }
const rows: Row[] = [];
for (const name of harnesses) {
  const summary = path.join(outDir, `${name}.summary.json`);
  rmSync(summary, { force: true });
  process.stdout.write(`\n=== bench:${name} ===\n`);
  const started = Date.now();
  const run = spawnSync('npm', ['run', '--silent', `bench:${name}`, '--', ...process.argv.slice(2)], { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const status = run.status === 0 ? 'ok' : `exit ${run.status ?? run.signal}`;
  const figures: Array<{ metric: string; value: unknown; target?: string }> = existsSync(summary) ? JSON.parse(readFileSync(summary, 'utf8')) : [];
  if (figures.length === 0) rows.push({ harness: name, status, seconds, metric: '-', value: '-', target: '' });
  for (const [i, f] of figures.entries()) {
    rows.push({ harness: i ? '' : name, status: i ? '' : status, seconds: i ? '' : seconds, metric: f.metric, value: String(f.value), target: f.target ?? '' });
  }
}

const cols: Array<keyof Row> = ['harness', 'status', 'seconds', 'metric', 'value', 'target'];
const width = (c: keyof Row) => Math.max(c.length, ...rows.map((r) => r[c].length));
const line = (r: Record<keyof Row, string>) => `| ${cols.map((c) => r[c].padEnd(width(c))).join(' | ')} |`;
process.stdout.write(`\nSummary\n${line(Object.fromEntries(cols.map((c) => [c, c])) as Record<keyof Row, string>)}\n`);
process.stdout.write(`|${cols.map((c) => '-'.repeat(width(c) + 2)).join('|')}|\n`);
for (const r of rows) process.stdout.write(`${line(r)}\n`);
process.exitCode = rows.some((r) => r.status && r.status !== 'ok') ? 1 : 0;
