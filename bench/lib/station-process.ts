/**
 * A station in its own process (`biostation serve` with every engine), so a benchmark measures
 * the station's resident memory alone, not the load generator's. The demo application's
 * credential (created at first start) gives the token.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface StationProcess {
  url: string;
  token: string;
  pid: number;
  /** Resident set size of the station process now, MiB (from /proc/<pid>/status). */
  rssMiB(): number;
  stop(): Promise<void>;
}

export async function startStationProcess(env: Record<string, string> = {}): Promise<StationProcess> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'biostation-load-'));
  const child: ChildProcess = spawn('node', ['src/bin/biostation.mjs', 'serve', '--port', '0'], {
    env: { ...process.env, BIOSTATION_DATA_DIR: dataDir, BIOSTATION_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`station did not start: ${stderr}`)), 120_000);
    child.stderr!.on('data', (d) => {
      stderr += d;
      const m = /listening on (https?:\/\/\S+)/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    child.on('exit', (code) => reject(new Error(`station exited with ${code}: ${stderr}`)));
  });
  const demo = JSON.parse(readFileSync(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { key: string; secret: string };
  const res = await fetch(`${url}/api/v1/app-credentials/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(demo) });
  const { token } = (await res.json()) as { token: string };
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${url}/ready`);
    if (ready.status === 200) break;
    if (i === 599) throw new Error(`engines not ready: ${await ready.text()}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url,
    token,
    pid: child.pid!,
    rssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN) / 1024;
    },
    async stop() {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body with one file field. */
export function multipartFile(field: string, filename: string, mime: string, bytes: Buffer): { body: Buffer; contentType: string } {
  const boundary = `----biostation${Math.random().toString(16).slice(2)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${mime}\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
