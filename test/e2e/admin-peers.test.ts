/**
 * Sync peers from the kiosk's Admin screen (issue #16 follow-up), in Debian's Chromium against two
 * real station processes (engines off: no biometrics are needed to add a peer and sync an empty
 * application). The clerk unlocks Admin with the station-admin secret, is refused a remote plain-http
 * address, adds the second station (loopback http) with its application's key and secret, pulls from
 * it, then removes it. The secret never appears on the page after it is sent.
 */
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqlitePeerListStore } from '../../src/store/sqlite/peer-list.js';
import { CHROMIUM, SCREENSHOTS, buildRenderer, e2eSkipReason, spawnUntil, type Child } from './harness.js';

async function prepare(): Promise<{ skip: string | null; tmp: string | null }> {
  const reason = e2eSkipReason();
  if (reason) return { skip: reason, tmp: null };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'biostation-e2e-peers-'));
  try {
    await buildRenderer(path.join(dir, 'ui'));
    return { skip: null, tmp: dir };
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    return { skip: `the renderer cannot be built: ${(e as Error).message}`, tmp: null };
  }
}
const { skip, tmp: builtTmp } = await prepare();
if (skip) console.warn(`[e2e admin peers] skipped: ${skip}`);

type Station = Child & { url: string; demo: { key: string; secret: string }; adminSecret: string };

/** A station process without engines, on an ephemeral loopback port, with its demo application and station-admin secret. */
async function startStation(dataDir: string, uiDir: string): Promise<Station> {
  const child = await spawnUntil(
    ['src/bin/biostation.mjs', 'serve', '--port', '0', '--host', '127.0.0.1'],
    { BIOSTATION_DATA_DIR: dataDir, BIOSTATION_UI_DIR: uiDir, BIOSTATION_LOG_LEVEL: 'warn', BIOSTATION_ENGINES: 'none' },
    /listening on (http:\/\/\S+)/,
  );
  const demo = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as { key: string; secret: string };
  let adminSecret = '';
  for (let i = 0; i < 100 && !adminSecret; i++) {
    adminSecret = /Station admin secret[^:]*: (\S+)/.exec(child.output())?.[1] ?? '';
    if (!adminSecret) await new Promise((r) => setTimeout(r, 50));
  }
  return { ...child, url: child.match[1]!, demo, adminSecret };
}

describe.skipIf(skip !== null)('Admin screen: sync peers of the application', () => {
  let tmp: string;
  let central: Station;
  let field: Station;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  const text = (testId: string) => page.getByTestId(testId).first().evaluate((el) => (el as HTMLElement).innerText);

  beforeAll(async () => {
    tmp = builtTmp!;
    central = await startStation(path.join(tmp, 'central'), path.join(tmp, 'ui'));
    field = await startStation(path.join(tmp, 'field'), path.join(tmp, 'ui'));
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
    page = await context.newPage();
    page.on('pageerror', (e) => console.warn('[page error]', e.message));
    page.on('dialog', (d) => void d.accept());
    await page.goto(`${central.url}/`);
    await page.getByLabel('Chave (key)').fill(central.demo.key);
    await page.getByLabel('Segredo (secret)').fill(central.demo.secret);
    await page.keyboard.press('Enter');
    await page.getByTestId('tile-admin').waitFor();
  }, 300_000);

  afterAll(async () => {
    await browser?.close().catch(() => undefined);
    await field?.stop();
    await central?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('adds a peer (a remote plain-http address refused), pulls from it, removes it; the secret is never shown', async () => {
    await page.getByTestId('tile-admin').click();
    await page.getByTestId('admin-secret').fill(central.adminSecret);
    await page.getByTestId('admin-unlock-submit').click();
    await page.getByTestId('admin-peer-form').waitFor({ timeout: 15_000 });
    await page.getByTestId('admin-sync-nopeer').waitFor();

    const fill = async (url: string) => {
      await page.getByTestId('admin-peer-name').fill('campo');
      await page.getByTestId('admin-peer-url').fill(url);
      await page.getByTestId('admin-peer-key').fill(field.demo.key);
      await page.getByTestId('admin-peer-secret').fill(field.demo.secret);
      await page.getByTestId('admin-peer-add').click();
    };
    // a station on the network must be https
    await fill('http://10.0.0.7:8080');
    const refused = page.getByTestId('admin-peers').getByTestId('error');
    await refused.waitFor();
    expect(await refused.getAttribute('data-code')).toBe('INVALID_PEER_URL');
    expect(await refused.innerText()).toMatch(/https:\/\/host:porta/);
    await page.getByTestId('admin-peers').scrollIntoViewIfNeeded();
    await shot('admin-peers-1-refused');

    await fill(field.url);
    await page.getByTestId('admin-peer-added').waitFor();
    expect(await page.getByTestId('admin-peer-secret').inputValue()).toBe('');
    expect(await text('admin-peer-campo')).toContain(field.url);
    // the sync card now offers it
    const row = page.getByTestId('admin-sync-peer-campo');
    await row.waitFor();
    await row.getByTestId('sync-pull').click();
    await expect.poll(() => text('admin-sync-last'), { timeout: 30_000 }).toMatch(/Última sincronização .* de http:\/\/127\.0\.0\.1/);
    expect(await page.getByTestId('admin-sync').getByTestId('error').count()).toBe(0);
    expect(await page.content()).not.toContain(field.demo.secret);
    await page.getByTestId('admin-sync').scrollIntoViewIfNeeded();
    await shot('admin-peers-2-added-pulled');

    await page.getByTestId('admin-peer-campo').getByTestId('admin-peer-remove').click();
    await page.getByTestId('admin-sync-nopeer').waitFor();
    expect(await page.getByTestId('admin-peer-campo').count()).toBe(0);
    const registryDb = new SqlitePeerListStore(path.join(tmp, 'central', 'station.db'));
    expect(JSON.parse((await registryDb.read()).body!).peers).toEqual([]);
    registryDb.close();
    await shot('admin-peers-3-removed');
  }, 120_000);
});
