/**
 * The kiosk's "Vivacidade avançada" option end to end: Debian's Chromium (headless, automated) with
 * a fake camera playing a real LFW face, the kiosk and the capture library as the station serves
 * them, the real station (face engine) deciding. A fake camera under automation is an injected
 * source, so the station rejects it: the kiosk must show that rejection in red with what to change,
 * never green, and must drop the verdict when the identifier changes.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { livenessAdvice } from '../../renderer/capture/liveness/advice.js';
import { CHROMIUM, DATASETS, ROOT, SCREENSHOTS, buildRenderer, e2eSkipReason, spawnUntil, waitForEngines, type Child } from './harness.js';
import { writeY4m } from './y4m.js';

const skip = e2eSkipReason();
if (skip) console.warn(`[e2e kiosk advanced liveness] skipped: ${skip}`);
const PHOTO = path.join(DATASETS, 'lfw-dev/images/Tony_Blair_0086.jpg');

describe.skipIf(!!skip)('kiosk: advanced liveness option (Verify) shows the station verdict', () => {
  let tmp: string;
  let station: Child & { url: string };
  let browser: Browser;
  let demo: { key: string; secret: string };

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'biostation-kiosk-liveness-e2e-'));
    const ui = path.join(tmp, 'ui');
    await buildRenderer(ui);
    // The library with captureLiveness replaces the plain capture build (as npm run build:renderer does).
    const vite = await import('vite');
    await vite.build({ configFile: path.join(ROOT, 'renderer/capture/liveness/vite.config.ts'), logLevel: 'warn', build: { outDir: path.join(ui, 'capture'), emptyOutDir: false } });
    await writeY4m(path.join(tmp, 'camera.y4m'), [{ photo: PHOTO, frames: 30 }]);
    station = await (async () => {
      const child = await spawnUntil(
        ['src/bin/biostation.mjs', 'serve', '--port', '0', '--host', '127.0.0.1'],
        { BIOSTATION_DATA_DIR: path.join(tmp, 'data'), BIOSTATION_UI_DIR: ui, BIOSTATION_LOG_LEVEL: 'warn', BIOSTATION_ENGINES: 'face', BIOSTATION_FACE_WORKERS: '1' },
        /listening on (http:\/\/\S+)/,
      );
      return { ...child, url: child.match[1]! };
    })();
    expect((await waitForEngines(station.url)).face).toBe('ready');
    demo = JSON.parse(await readFile(path.join(tmp, 'data/demo-credentials.json'), 'utf8'));
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream', `--use-file-for-fake-video-capture=${path.join(tmp, 'camera.y4m')}`],
    });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await station?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('fake camera + automation: the station rejects and the kiosk shows it red with what to change; a new identifier clears it', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
    page.on('pageerror', (e) => console.warn('[page error]', e.message));
    await page.goto(`${station.url}/`);
    await page.getByLabel('Chave (key)').fill(demo.key);
    await page.getByLabel('Segredo (secret)').fill(demo.secret);
    await page.keyboard.press('Enter');
    await page.getByTestId('tile-verify').click();
    await page.getByTestId('verify-extid').fill('blair-1');
    await page.getByTestId('verify-face-file').setInputFiles(PHOTO);
    await page.getByTestId('verify-face-captured').waitFor();
    expect(await page.getByTestId('verify-submit').isEnabled()).toBe(true);
    await page.getByTestId('advanced-liveness-toggle').check();
    // On, no verdict yet: verification waits for it.
    expect(await page.getByTestId('verify-liveness-block').getAttribute('data-block')).toBe('pending');
    expect(await page.getByTestId('verify-submit').isEnabled()).toBe(false);

    const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/services/liveness/check') && r.request().method() === 'POST', { timeout: 120_000 });
    await page.getByTestId('advanced-liveness-run').click();
    const res = await answer;
    const body = (await res.json()) as any;
    console.info(`[e2e kiosk advanced liveness] station: ${res.status()} ${JSON.stringify(body.data ?? body)}`);
    // The station's verdict: a fake camera under automation is rejected.
    expect(res.status()).toBe(200);
    const rejection: string[] = body.data.capture_liveness.rejection;
    expect(rejection).toContain('UNTRUSTED_DEVICE');

    // The kiosk shows that verdict: red, not green, with the advice for every reason the station gave.
    const verdict = page.getByTestId('advanced-liveness-verdict');
    await verdict.waitFor({ timeout: 30_000 });
    expect(await verdict.getAttribute('data-live')).toBe('false');
    expect(await verdict.locator('.notice-error').count()).toBe(1);
    expect(await page.locator('[data-testid="advanced-liveness"] .notice-success').count()).toBe(0);
    const text = await verdict.innerText();
    expect(text).toContain('Vivacidade não aprovada');
    for (const advice of livenessAdvice(rejection)) expect(text).toContain(advice);
    expect(text).toContain('Câmera não confiável');
    expect(text).toContain(`Captura legítima: ${Math.round(body.data.capture_liveness.probability * 100)} %`);
    // No raw stable codes on screen.
    expect(text).not.toMatch(/\b[A-Z]{3,}_[A-Z_]{3,}\b/);

    // Rejected: the verification does not go ahead (red, in Portuguese).
    const block = page.getByTestId('verify-liveness-block');
    expect(await block.getAttribute('data-block')).toBe('rejected');
    expect(await block.innerText()).toMatch(/Vivacidade avançada reprovada: a verificação não pode continuar/);
    expect(await page.getByTestId('verify-submit').isEnabled()).toBe(false);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'liveness-01-verify-blocked.png'), fullPage: true });

    // Another identifier: the verdict was not shown for it, so it goes (and verification waits for a new one).
    await page.getByTestId('verify-extid').fill('someone-else');
    expect(await page.getByTestId('advanced-liveness-verdict').count()).toBe(0);
    expect(await block.getAttribute('data-block')).toBe('pending');
    // The option off: verification may go ahead again.
    await page.getByTestId('advanced-liveness-toggle').uncheck();
    expect(await block.count()).toBe(0);
    expect(await page.getByTestId('verify-submit').isEnabled()).toBe(true);
    await page.close();
  }, 240_000);

  it('enrollment with the option on and a rejected verdict is refused at the summary, red with the reason', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
    page.on('pageerror', (e) => console.warn('[page error]', e.message));
    await page.goto(`${station.url}/`);
    await page.getByLabel('Chave (key)').fill(demo.key);
    await page.getByLabel('Segredo (secret)').fill(demo.secret);
    await page.keyboard.press('Enter');
    await page.getByTestId('tile-enroll').click();
    await page.getByTestId('enroll-extid').fill('liveness-refused');
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-face-file').setInputFiles(PHOTO);
    await page.getByTestId('enroll-face-captured').waitFor();
    await page.getByTestId('advanced-liveness-toggle').check();
    await page.getByTestId('advanced-liveness-run').click();
    await page.getByTestId('advanced-liveness-verdict').waitFor({ timeout: 120_000 });
    expect(await page.getByTestId('advanced-liveness-verdict').getAttribute('data-live')).toBe('false');
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-skip').click();
    await page.getByTestId('enroll-skip').click();
    const block = page.getByTestId('enroll-liveness-block');
    await block.waitFor();
    expect(await block.getAttribute('data-block')).toBe('rejected');
    expect(await block.innerText()).toMatch(/Vivacidade avançada reprovada: o cadastro não pode continuar/);
    expect(await block.innerText()).toContain('Câmera não confiável');
    await expect.poll(() => page.getByTestId('enroll-confirm').isDisabled(), { timeout: 60_000 }).toBe(true);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'liveness-02-enroll-blocked.png'), fullPage: true });
    // Nothing was enrolled.
    const token = ((await (await fetch(`${station.url}/api/v1/app-credentials/token`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(demo) })).json()) as { token: string }).token;
    const count = await (await fetch(`${station.url}/api/v1/services/face/templates/count/liveness-refused`, { headers: { Authorization: `Bearer ${token}` } })).json() as any;
    expect(count.count ?? 0).toBe(0);
    await page.close();
  }, 240_000);
});
