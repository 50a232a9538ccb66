/**
 * The kiosk in a real browser: Debian's Chromium (playwright-core) with a fake camera playing a
 * video made of LFW photos, against the real station (child process) and the headless virtual
 * fingerprint reader. Enrolls a person with face (live camera, automatic capture) and two fingers
 * (virtual reader), reads a synthetic CNH, verifies and identifies them, compares, opens admin,
 * and saves a screenshot of every screen to test-results/screenshots/.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCnh } from '../fixtures/cnh/index.js';
import {
  DATASETS, SCREENSHOTS, buildRenderer, e2eSkipReason, launchChromium, startReaderBridgeProcess, startStationProcess, waitForEngines,
  type Child,
} from './harness.js';
import { writeY4m } from './y4m.js';

/** The UI is built before the suite is collected, so a build failure skips it with the reason. */
async function prepare(): Promise<{ skip: string | null; tmp: string | null }> {
  const reason = e2eSkipReason();
  if (reason) return { skip: reason, tmp: null };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'biostation-e2e-'));
  try {
    await buildRenderer(path.join(dir, 'ui'));
    return { skip: null, tmp: dir };
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    return { skip: `the renderer cannot be built: ${(e as Error).message}`, tmp: null };
  }
}
const { skip, tmp: builtTmp } = await prepare();
if (skip) console.warn(`[e2e] skipped: ${skip}`);

const PERSON = 'Tony_Blair';
const OTHER = 'Silvio_Berlusconi';
const lfw = (name: string, i: number) => path.join(DATASETS, 'lfw-dev/images', `${name}_${String(i).padStart(4, '0')}.jpg`);
const fvc = (name: string) => path.join(DATASETS, 'fvc/fvc2002/DB1_B', name);
const EXT_ID = 'tony.blair-0001';

describe.skipIf(skip !== null)('kiosk end to end (Chromium, fake camera, virtual reader)', () => {
  let tmp: string;
  let station: Child & { url: string; demo: { key: string; secret: string }; adminSecret: string };
  let bridge: Child & { url: string };
  let browser: Browser;
  let page: Page;
  let engines: Record<string, string> = {};
  const files: Record<string, string> = {};

  const shot = async (name: string) => {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  };
  /** The page must not scroll sideways (no layout break). */
  const expectNoHorizontalOverflow = async () => {
    const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    expect(scroll).toBeLessThanOrEqual(width);
  };
  const home = async () => {
    await page.keyboard.press('Escape');
    await page.getByTestId('tile-enroll').waitFor();
  };

  beforeAll(async () => {
    tmp = builtTmp!;
    const uiDir = path.join(tmp, 'ui');

    const readerDir = path.join(tmp, 'readers', 'fvc-101');
    await mkdir(readerDir, { recursive: true });
    for (const f of ['101_1.png', '101_2.png']) await copyFile(fvc(f), path.join(readerDir, f));
    files.fingerProbe = fvc('101_3.png');
    files.fingerOther = fvc('105_1.png');
    files.faceProbe = lfw(PERSON, 32);
    files.faceOther = lfw(OTHER, 6);
    const cnh = await generateCnh(7, { model: '2022', format: 'image' });
    files.cnh = path.join(tmp, 'cnh.png');
    await writeFile(files.cnh, cnh.bytes);

    const y4m = path.join(tmp, 'camera.y4m');
    const camera = lfw(PERSON, 86);
    await writeY4m(y4m, [
      { photo: camera, frames: 20, kind: 'dark' },
      { photo: camera, frames: 40, kind: 'empty' },
      { photo: camera, frames: 40, kind: 'face' },
    ]);

    station = await startStationProcess(path.join(tmp, 'data'), uiDir);
    bridge = await startReaderBridgeProcess(path.dirname(readerDir));
    engines = await waitForEngines(station.url);
    browser = await launchChromium(y4m);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
    page = await context.newPage();
    page.on('pageerror', (e) => console.warn('[page error]', e.message));
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await bridge?.stop();
    await station?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('serves the UI and asks for the application key and secret once', async () => {
    await page.goto(`${station.url}/?readers=${encodeURIComponent(bridge.url)}`);
    await page.getByText('Entrar na estação').waitFor();
    await expectNoHorizontalOverflow();
    await shot('01-login');
    await page.getByLabel('Chave (key)').fill(station.demo.key);
    await page.getByLabel('Segredo (secret)').fill(station.demo.secret);
    await page.keyboard.press('Enter');
    await page.getByTestId('tile-enroll').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('biostation.token'))).toMatch(/^ey/);
  });

  it('shows the home screen with the station status always visible', async () => {
    const status = page.getByTestId('statusbar');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain('em operação');
    await expect.poll(() => page.getByTestId('status-readers').textContent(), { timeout: 15_000 }).toContain('fvc-101');
    await expect.poll(() => page.getByTestId('status-people').textContent(), { timeout: 15_000 }).toBe('0');
    expect(engines).toEqual({ face: 'ready', finger: 'ready', ocr: 'ready' });
    await expectNoHorizontalOverflow();
    await shot('02-home');
  });

  it('enrolls a person: live face with automatic capture, two fingers from the virtual reader, CNH, one confirm', async () => {
    await page.keyboard.press('1');
    await page.getByTestId('enroll-extid').fill('not valid!');
    expect(await page.getByTestId('enroll-next').isDisabled()).toBe(true);
    await page.getByTestId('enroll-extid').fill(EXT_ID);
    await shot('03-enroll-id');
    await page.getByTestId('enroll-next').click();

    // Record every feedback the clerk sees while the fake camera plays dark -> no face -> face.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { feedbackSeen: string[] }).feedbackSeen = seen;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="enroll-face-feedback"]')?.textContent ?? '';
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    // The detector loads when the step opens; the camera then starts at the video's first (dark) frame.
    await page.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
    await page.getByTestId('enroll-face-start').click();
    await page.getByTestId('enroll-face-feedback').waitFor();
    await page.waitForFunction(() => /Ótimo/.test(document.querySelector('[data-testid="enroll-face-feedback"]')?.textContent ?? ''), undefined, { timeout: 120_000 });
    await shot('04-enroll-face-camera');
    await page.getByTestId('enroll-face-captured').waitFor({ timeout: 90_000 });
    const seen = await page.evaluate(() => (window as unknown as { feedbackSeen: string[] }).feedbackSeen);
    console.log(`[e2e] face guide feedback seen: ${seen.join(' | ')}`);
    expect(seen.join(' | ')).toMatch(/Pouca luz/);
    expect(seen.join(' | ')).toMatch(/Nenhum rosto/);
    await shot('05-enroll-face-captured');
    await page.getByTestId('enroll-next').click();

    await page.getByTestId('enroll-finger-capture').click();
    await expect.poll(() => page.getByTestId('enroll-finger-item').count(), { timeout: 20_000 }).toBe(1);
    await page.getByTestId('enroll-finger-capture').click();
    await expect.poll(() => page.getByTestId('enroll-finger-item').count(), { timeout: 20_000 }).toBe(2);
    await shot('06-enroll-fingers');
    await page.getByTestId('enroll-next').click();

    await page.getByTestId('cnh-file').setInputFiles(files.cnh!);
    await page.getByTestId('cnh-fields').waitFor({ timeout: 120_000 });
    await expect.poll(() => page.getByTestId('cnh-meta').textContent()).toContain('CNH');
    const name = await page.locator('#cnh-input-nome_completo').inputValue();
    expect(name.length).toBeGreaterThan(3);
    await expectNoHorizontalOverflow();
    await shot('07-enroll-document');
    await page.getByTestId('enroll-next').click();

    await page.getByTestId('enroll-summary').waitFor();
    await page.getByTestId('enroll-confirm').click();
    const result = page.getByTestId('enroll-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.textContent()).toContain('Pessoa cadastrada');
    await expect.poll(() => page.getByTestId('status-people').textContent(), { timeout: 15_000 }).toBe('1');
    await shot('08-enroll-done');
  }, 400_000);

  it('verifies the person with the live camera', async () => {
    await home();
    await page.getByTestId('tile-verify').click();
    await page.getByTestId('verify-extid').fill(EXT_ID);
    await page.getByTestId('verify-face-start').click();
    await page.getByTestId('verify-face-captured').waitFor({ timeout: 90_000 });
    await page.getByTestId('verify-submit').click();
    const result = page.getByTestId('verify-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.textContent()).toContain('Identidade confirmada');
    expect(await page.getByTestId('score').textContent()).toMatch(/Pontuação: \d/);
    await shot('09-verify');
  }, 200_000);

  it('shows the clear message of an API error code (unknown ext_id)', async () => {
    await page.getByTestId('verify-extid').fill('nobody-here');
    await page.getByTestId('verify-submit').click();
    const error = page.getByTestId('error');
    await error.waitFor({ timeout: 60_000 });
    expect(await error.textContent()).toContain('Nenhuma pessoa com este identificador');
    // The stable code stays on the element for support, never in the clerk's text.
    expect(await error.getAttribute('data-code')).toBe('PERSON_NOT_FOUND');
    expect(await error.textContent()).not.toContain('PERSON_NOT_FOUND');
    await shot('10-verify-error');
  }, 120_000);

  it('identifies the person from another photo, and nobody for a stranger', async () => {
    await home();
    await page.getByTestId('tile-identify').click();
    await page.getByTestId('identify-face-file').setInputFiles(files.faceProbe!);
    await page.getByTestId('identify-face-captured').waitFor();
    await page.getByTestId('identify-submit').click();
    await page.getByTestId('identify-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('identify-extid').textContent()).toBe(EXT_ID);
    await shot('11-identify-face');

    await page.getByRole('button', { name: 'Capturar de novo' }).click();
    await page.getByTestId('identify-face-file').setInputFiles(files.faceOther!);
    await page.getByTestId('identify-face-captured').waitFor();
    await page.getByTestId('identify-submit').click();
    await page.getByTestId('identify-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('identify-result').textContent()).toContain('Ninguém encontrado');
    await shot('12-identify-nobody');
  }, 200_000);

  it('identifies the person by another impression of the enrolled finger', async () => {
    await page.getByTestId('modality-finger').click();
    await page.getByTestId('identify-finger-file').setInputFiles(files.fingerProbe!);
    await page.getByTestId('identify-finger-item').waitFor();
    await page.getByTestId('identify-submit').click();
    await page.getByTestId('identify-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('identify-extid').textContent()).toBe(EXT_ID);
    await shot('13-identify-finger');
  }, 120_000);

  it('compares two face photos without enrollment', async () => {
    await home();
    await page.getByTestId('tile-compare').click();
    await page.getByTestId('compare-a-face-file').setInputFiles(files.faceProbe!);
    await page.getByTestId('compare-b-face-file').setInputFiles(lfw(PERSON, 48));
    await page.getByTestId('compare-a-face-captured').waitFor();
    await page.getByTestId('compare-b-face-captured').waitFor();
    await page.getByTestId('compare-submit').click();
    await page.getByTestId('compare-result').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('compare-result').textContent()).toContain('Mesma pessoa');
    await expectNoHorizontalOverflow();
    await shot('14-compare');
  }, 120_000);

  it('reads a synthetic CNH on its own, with every field and its confidence band', async () => {
    await home();
    await page.getByTestId('tile-document').click();
    await page.getByTestId('cnh-file').setInputFiles(files.cnh!);
    await page.getByTestId('cnh-fields').waitFor({ timeout: 120_000 });
    const rows = await page.locator('[data-testid="cnh-fields"] tbody tr').count();
    expect(rows).toBeGreaterThanOrEqual(10);
    const bands = await page.locator('[data-testid="cnh-fields"] tbody tr').evaluateAll((trs) => trs.map((tr) => tr.className));
    expect(bands.every((b) => /^band-(veryHigh|high|medium|low)$/.test(b))).toBe(true);
    await page.locator('#cnh-input-observacoes').fill('A - CORRIGIDO NO BALCÃO');
    await page.getByTestId('cnh-edited-observacoes').waitFor();
    expect(await page.getByTestId('cnh-observacoes').textContent()).toMatch(/corrigido/);
    await shot('15-document');
  }, 200_000);

  it('shows administration behind the station-admin secret: application, counts, export, sync peers, health', async () => {
    await home();
    await page.getByTestId('tile-admin').click();
    await page.getByTestId('admin-secret').fill(station.adminSecret);
    await page.getByTestId('admin-unlock-submit').click();
    await expect.poll(() => page.getByTestId('admin-faces').textContent(), { timeout: 15_000 }).toBe('1');
    expect(await page.getByTestId('admin-appkey').textContent()).toBe(station.demo.key);
    const download = page.waitForEvent('download');
    await page.getByTestId('admin-export').click();
    expect((await download).suggestedFilename()).toMatch(/^biostation-faces-.*\.json$/);
    await page.getByTestId('admin-exported').waitFor();
    // No sync peer here (none configured in BIOSTATION_SYNC_PEERS, none added from this screen: the
    // station-admin form is tested in admin-peers.test.ts); the card says so.
    await page.getByTestId('admin-sync-nopeer').waitFor();
    expect(await page.getByTestId('admin-sync-last').textContent()).toContain('Nenhuma sincronização');
    await shot('16-admin');
  }, 120_000);

  it('works from the keyboard alone and keeps every control a large touch target', async () => {
    await home();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('Tab');
      if ((await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))) === 'tile-verify') break;
    }
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tile-verify');
    await page.keyboard.press('Enter');
    await page.getByTestId('verify-extid').waitFor();
    const small = await page.evaluate(() =>
      Array.from(document.querySelectorAll('button, input:not([type=file]):not([type=checkbox]), select, label.file-btn'))
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => ({ what: el.outerHTML.slice(0, 80), h: el.getBoundingClientRect().height }))
        .filter((c) => c.h < 44),
    );
    expect(small).toEqual([]);
    await page.keyboard.press('Escape');
    await page.getByTestId('tile-enroll').waitFor();
  }, 60_000);

  it('serves the capture library as a standalone module that opens the camera and grabs a frame', async () => {
    // A string, so that vitest does not rewrite the browser-side dynamic import.
    const result = (await page.evaluate(`(async () => {
      const lib = await import(location.origin + '/capture/biostation-capture.js');
      const video = document.createElement('video');
      const stream = await lib.startCamera(video);
      const frame = lib.grabFrame(video);
      lib.stopCamera(stream);
      return { exports: Object.keys(lib).sort(), width: frame.widthPx, height: frame.heightPx, jpeg: frame.base64.slice(0, 4) };
    })()`)) as { exports: string[]; width: number; height: number; jpeg: string };
    expect(result.exports).toEqual(expect.arrayContaining(['assessFace', 'createFaceDetector', 'grabFrame', 'runFaceGuide', 'startCamera']));
    expect(result.width).toBeGreaterThanOrEqual(640);
    expect(result.height).toBeGreaterThanOrEqual(480);
    expect(result.jpeg).toBe('/9j/');
  }, 60_000);

  it('switches to English and keeps its layout at 1920x1080', async () => {
    await home();
    await page.getByTestId('lang').click();
    await page.getByText('What would you like to do?').waitFor();
    await page.setViewportSize({ width: 1920, height: 1080 });
    await expectNoHorizontalOverflow();
    await shot('17-home-en-1920x1080');
    await page.getByTestId('tile-enroll').click();
    await expectNoHorizontalOverflow();
    await page.getByTestId('lang').click();
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
});
