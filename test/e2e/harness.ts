/**
 * End-to-end harness: builds the kiosk UI into a temp folder, starts the station (`biostation
 * serve`) and the headless reader bridge as child processes on ephemeral loopback ports, and
 * launches Debian's Chromium with a fake camera through playwright-core.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHROMIUM = process.env.BIOSTATION_CHROMIUM ?? '/usr/bin/chromium';
export const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve(ROOT, '../shared/datasets');
export const SCREENSHOTS = path.join(ROOT, 'test-results/screenshots');

/** Why the e2e suite cannot run here, or null when it can. */
export function e2eSkipReason(): string | null {
  if (!existsSync(CHROMIUM)) return `Chromium not found at ${CHROMIUM} (apt-get install chromium, or set BIOSTATION_CHROMIUM)`;
  if (!existsSync(path.join(DATASETS, 'lfw-dev/images'))) return `datasets not found at ${DATASETS} (set BIOSTATION_DATASETS)`;
  return null;
}

/** Builds renderer/ with Vite into `outDir`, and the standalone capture library into `outDir/capture`. Throws when a build fails. */
export async function buildRenderer(outDir: string): Promise<void> {
  const vite = await import('vite');
  await vite.build({ configFile: path.join(ROOT, 'renderer/vite.config.ts'), logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  await vite.build({
    configFile: path.join(ROOT, 'renderer/capture/vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: path.join(outDir, 'capture'), emptyOutDir: true },
  });
}

/** A child process that prints a line matching `pattern` once ready. */
export interface Child {
  proc: ChildProcess;
  match: RegExpMatchArray;
  output(): string;
  stop(): Promise<void>;
}

/** Spawns `node <args>` and resolves when stdout/stderr shows `pattern` (rejects on exit or time-out). */
export function spawnUntil(args: string[], env: Record<string, string>, pattern: RegExp, timeoutMs = 120_000): Promise<Child> {
  const proc = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const stop = () =>
    new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
      proc.once('exit', () => resolve());
      proc.kill('SIGTERM');
      setTimeout(() => proc.kill('SIGKILL'), 5000).unref();
    });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`timed out waiting for ${pattern} from ${args.join(' ')}:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = out.match(pattern);
      if (match) {
        clearTimeout(timer);
        resolve({ proc, match, output: () => out, stop });
      }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', onData);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited with ${code}:\n${out}`));
    });
  });
}

/** Starts the station on an ephemeral port with its own data folder and UI folder. */
export async function startStationProcess(dataDir: string, uiDir: string) {
  const child = await spawnUntil(
    ['src/bin/biostation.mjs', 'serve', '--port', '0', '--host', '127.0.0.1'],
    { BIOSTATION_DATA_DIR: dataDir, BIOSTATION_UI_DIR: uiDir, BIOSTATION_LOG_LEVEL: 'warn', BIOSTATION_OCR_POOL_SIZE: '1' },
    /listening on (http:\/\/\S+)/,
  );
  const url = child.match[1]!;
  const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { key: string; secret: string };
  // The station-admin secret is printed once, on the start that created it (src/cli.ts).
  let adminSecret = '';
  for (let i = 0; i < 100 && !adminSecret; i++) {
    adminSecret = /Station admin secret[^:]*: (\S+)/.exec(child.output())?.[1] ?? '';
    if (!adminSecret) await new Promise((r) => setTimeout(r, 50));
  }
  return { ...child, url, demo, adminSecret };
}

/** Starts the headless reader bridge over a folder of fingerprint images. */
export async function startReaderBridgeProcess(readerDir: string) {
  const child = await spawnUntil(['--import', 'tsx', 'native/bridge-cli.ts', '--dir', readerDir, '--port', '0'], {}, /READER_BRIDGE_URL=(\S+)/, 60_000);
  return { ...child, url: child.match[1]! };
}

/** Waits until GET /ready says every engine is ready (or failed/disabled), returns the engine states. */
export async function waitForEngines(url: string, timeoutMs = 240_000): Promise<Record<string, string>> {
  const until = Date.now() + timeoutMs;
  let engines: Record<string, string> = {};
  while (Date.now() < until) {
    const res = await fetch(`${url}/ready`).catch(() => null);
    if (res) {
      engines = ((await res.json()) as { engines: Record<string, string> }).engines;
      if (Object.values(engines).every((s) => s !== 'loading')) return engines;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  return engines;
}

/** Launches Chromium headless with a fake camera playing `y4m`. */
export async function launchChromium(y4m: string): Promise<Browser> {
  await mkdir(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      `--use-file-for-fake-video-capture=${y4m}`,
    ],
  });
}
