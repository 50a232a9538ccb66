import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Headline figures of a harness for `npm run bench`'s summary table: appended to
 * `bench/out/<harness>.summary.json` as `{ metric, value, target? }`.
 */
export function recordSummary(harness: string, metric: string, value: string | number, target?: string): void {
  const dir = path.resolve('bench/out');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${harness}.summary.json`);
  const rows: unknown[] = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [];
  rows.push({ metric, value, ...(target ? { target } : {}) });
  writeFileSync(file, JSON.stringify(rows, null, 2));
}
