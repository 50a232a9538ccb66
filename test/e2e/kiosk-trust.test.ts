/**
 * Issue #16, "a kiosk a clerk can trust": one test per finding of the clerk's walk, each in
 * Debian's Chromium against the real station. Every test here failed on the kiosk before the fix:
 * stale verdicts, finger enrollment replacing fingers, the face guide's size rule and manual capture,
 * session expiry, camera failures, an unplugged reader, the CNH step, and jargon / no reset.
 * Cameras: each face-guide case launches its own Chromium whose fake camera plays one still scene.
 */
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCnh } from '../fixtures/cnh/index.js';
import {
  CHROMIUM, DATASETS, SCREENSHOTS, buildRenderer, e2eSkipReason, launchChromium, startReaderBridgeProcess, startStationProcess, waitForEngines,
  type Child,
} from './harness.js';
import { writeY4m, type Segment } from './y4m.js';

async function prepare(): Promise<{ skip: string | null; tmp: string | null }> {
  const reason = e2eSkipReason();
  if (reason) return { skip: reason, tmp: null };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'biostation-e2e-trust-'));
  try {
    await buildRenderer(path.join(dir, 'ui'));
    return { skip: null, tmp: dir };
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    return { skip: `the renderer cannot be built: ${(e as Error).message}`, tmp: null };
  }
}
const { skip, tmp: builtTmp } = await prepare();
if (skip) console.warn(`[e2e trust] skipped: ${skip}`);

const lfw = (name: string, i: number) => path.join(DATASETS, 'lfw-dev/images', `${name}_${String(i).padStart(4, '0')}.jpg`);
const fvc = (name: string) => path.join(DATASETS, 'fvc/fvc2002/DB1_B', name);
const FACE = lfw('Tony_Blair', 86);

/**
 * The synthetic CNH with a real face in its photo box: the box is the largest area of the
 * generator's photo grey (#c9cfc4), found by scanning the rendered card; the face photo is cropped
 * to it (cover) with a 6 px inset.
 */
async function cnhWithPhoto(card: Buffer, face: string): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  const { data, info } = await sharp(card).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = (y * info.width + x) * 3;
      if (Math.abs(data[i]! - 0xc9) < 4 && Math.abs(data[i + 1]! - 0xcf) < 4 && Math.abs(data[i + 2]! - 0xc4) < 4) {
        x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      }
    }
  }
  if (x1 < 0) throw new Error('no photo box on the card');
  const w = x1 - x0 - 12;
  const h = y1 - y0 - 12;
  const photo = await sharp(face).resize(w, h, { fit: 'cover' }).toBuffer();
  return sharp(card).composite([{ input: photo, left: x0 + 6, top: y0 + 6 }]).png().toBuffer();
}
/** Words a clerk should never meet on screen: notation, field names, raw stable codes. */
const JARGON = /\b1:1\b|\b1:N\b|ext_id|\bdump\b|Motores|\b[A-Z]{3,}_[A-Z_]{3,}\b/;

describe.skipIf(skip !== null)('a kiosk a clerk can trust (issue #16)', () => {
  let tmp: string;
  let station: Child & { url: string; demo: { key: string; secret: string }; adminSecret: string };
  let bridge: Child & { url: string };
  const browsers: Browser[] = [];
  /**
   * Browsers of the running test, closed when it ends: each one's fake camera keeps a renderer busy
   * (~a third of a core), and left open until the file's end they added up to a core or more on CI.
   */
  const testBrowsers: Browser[] = [];
  let token = '';
  let cnhFile = '';
  let plainCnhFile = '';

  /** Calls the station's API with the demo application's token. */
  const apiGet = async (p: string) => (await fetch(`${station.url}${p}`, { headers: { Authorization: `Bearer ${token}` } })).json() as Promise<any>;
  const apiPost = async (p: string, body: unknown) =>
    (await fetch(`${station.url}${p}`, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<any>;
  const b64 = async (file: string) => (await import('node:fs/promises')).readFile(file).then((b) => b.toString('base64'));

  /** A logged-in kiosk page in a fresh Chromium (own fake camera, or none, or a camera the user refused). */
  async function kiosk(camera: 'none' | 'denied' | Segment[], opts: { readers?: string; viewport?: { width: number; height: number }; atLogin?: (page: Page) => Promise<void>; keepOpen?: boolean } = {}): Promise<Page> {
    let browser: Browser;
    if (camera === 'none' || camera === 'denied') {
      const args = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'];
      // No fake device: headless Chromium then has no camera at all. With the fake device but
      // without the auto-accept UI flag, the permission request is refused.
      if (camera === 'none') args.push('--use-fake-ui-for-media-stream');
      else args.push('--use-fake-device-for-media-stream', '--deny-permission-prompts');
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args });
    } else {
      const y4m = path.join(tmp, `camera-${browsers.length}.y4m`);
      await writeY4m(y4m, camera);
      browser = await launchChromium(y4m);
    }
    browsers.push(browser);
    // keepOpen: a page that later tests of its describe go on using (closed with the rest after the file).
    if (!opts.keepOpen) testBrowsers.push(browser);
    const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, locale: 'pt-BR' });
    const page = await context.newPage();
    page.on('pageerror', (e) => console.warn('[page error]', e.message));
    await page.goto(`${station.url}/${opts.readers ? `?readers=${encodeURIComponent(opts.readers)}` : ''}`);
    await page.getByLabel('Chave (key)').waitFor();
    await opts.atLogin?.(page);
    await page.getByLabel('Chave (key)').fill(station.demo.key);
    await page.getByLabel('Segredo (secret)').fill(station.demo.secret);
    await page.keyboard.press('Enter');
    await page.getByTestId('tile-enroll').waitFor();
    return page;
  }
  const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  /** Visible text only (closed <details> and hidden elements excluded). */
  const visibleText = (page: Page, selector = 'body') => page.locator(selector).first().evaluate((el) => (el as HTMLElement).innerText);

  beforeAll(async () => {
    tmp = builtTmp!;
    const readerDir = path.join(tmp, 'readers', 'fvc-101');
    await mkdir(readerDir, { recursive: true });
    for (const f of ['101_1.png', '101_2.png', '101_4.png']) await copyFile(fvc(f), path.join(readerDir, f));
    const cnh = await generateCnh(11, { model: '2022', format: 'image' });
    cnhFile = path.join(tmp, 'cnh.png');
    await writeFile(cnhFile, await cnhWithPhoto(Buffer.from(cnh.bytes), lfw('Silvio_Berlusconi', 8)));
    plainCnhFile = path.join(tmp, 'cnh-plain.png');
    await writeFile(plainCnhFile, cnh.bytes);
    station = await startStationProcess(path.join(tmp, 'data'), path.join(tmp, 'ui'));
    bridge = await startReaderBridgeProcess(path.dirname(readerDir));
    await waitForEngines(station.url);
    const res = await fetch(`${station.url}/api/v1/app-credentials/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(station.demo),
    });
    token = ((await res.json()) as { token: string }).token;
    // The person verified below, enrolled through the API.
    const enrolled = await apiPost('/api/v1/services/face/enroll/blair-1', { Images: [{ imageType: 'frontal', imageData: await b64(FACE) }] });
    expect(enrolled.result.code).toBe(1000);
  }, 600_000);

  afterEach(async () => {
    for (const b of testBrowsers.splice(0)) await b.close().catch(() => undefined);
  });

  afterAll(async () => {
    for (const b of browsers) await b.close().catch(() => undefined);
    await bridge?.stop();
    await station?.stop();
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('1. clears the verdict when the identifier or the liveness switch changes; liveness not proven is never green', async () => {
    const page = await kiosk([{ photo: FACE, frames: 10 }]);
    await page.getByTestId('tile-verify').click();
    await page.getByTestId('verify-extid').fill('blair-1');
    await page.getByTestId('verify-face-file').setInputFiles(lfw('Tony_Blair', 32));
    await page.getByTestId('verify-face-captured').waitFor();
    await page.getByTestId('verify-submit').click();
    const result = page.getByTestId('verify-result');
    await result.waitFor({ timeout: 60_000 });
    expect(await result.getAttribute('data-kind')).toBe('success');
    await shot(page, 'trust-01-verify-confirmed');
    // Another identifier: the green card must go, it was not computed for this one.
    await page.getByTestId('verify-extid').fill('someone-else');
    expect(await result.count()).toBe(0);
    await page.getByTestId('verify-extid').fill('blair-1');
    await page.getByTestId('verify-submit').click();
    await result.waitFor({ timeout: 60_000 });
    await page.getByText('Prova de vida').click();
    expect(await result.count()).toBe(0);
    await page.getByTestId('verify-submit').click();
    // With liveness asked: green only if the station evaluated and passed it; 1013 is a red refusal.
    await page.locator('[data-testid="verify-result"], [data-testid="error"]').first().waitFor({ timeout: 60_000 });
    if (await result.count()) {
      // The same person: a match, green only when liveness was evaluated (and passed).
      const unproven = (await page.getByTestId('liveness-unproven').count()) > 0;
      expect(await result.getAttribute('data-kind')).toBe(unproven ? 'warn' : 'success');
    } else {
      expect(await page.getByTestId('error').getAttribute('data-code')).toBe('LIVENESS_CHECK_FAILED');
      expect(await visibleText(page, '[data-testid="error"]')).toMatch(/Prova de vida reprovada/);
    }
    await shot(page, 'trust-02-verify-liveness');
  }, 240_000);

  it('2. enrolls three fingers from the reader and the person holds three fingerprint templates', async () => {
    const page = await kiosk([{ photo: FACE, frames: 10 }], { readers: bridge.url });
    await page.getByTestId('tile-enroll').click();
    await page.getByTestId('enroll-extid').fill('fingers-3');
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-skip').click();
    for (let n = 1; n <= 3; n++) {
      await page.getByTestId('enroll-finger-capture').click();
      await expect.poll(() => page.getByTestId('enroll-finger-item').count(), { timeout: 20_000 }).toBe(n);
    }
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-skip').click();
    await page.getByTestId('enroll-confirm').click();
    await page.getByTestId('enroll-result').waitFor({ timeout: 120_000 });
    expect(await visibleText(page, '[data-testid="enroll-result"]')).toContain('Pessoa cadastrada');
    expect((await apiGet('/api/v1/services/finger/templates/count/fingers-3')).count).toBe(3);
    await shot(page, 'trust-03-enroll-three-fingers');
  }, 240_000);

  describe('3. the face guide: oval and rule agree, too close, empty frame', () => {
    it('does not accept a face half the oval: it asks to come closer and never captures', async () => {
      const page = await kiosk([{ photo: FACE, frames: 10, scale: 0.5 }]);
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill('far-away');
      await page.getByTestId('enroll-next').click();
      await page.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('enroll-face-start').click();
      await page.waitForFunction(() => /Aproxime-se/.test(document.querySelector('[data-testid="enroll-face-feedback"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
      await shot(page, 'trust-04-face-too-far');
      await page.waitForTimeout(6000);
      expect(await page.getByTestId('enroll-face-captured').count()).toBe(0);
      expect(await page.getByTestId('enroll-face-feedback').getAttribute('data-feedback')).toBe('tooFar');
    }, 180_000);

    it('says "Afaste-se" for a face too close for the detector at full size', async () => {
      const page = await kiosk([{ photo: FACE, frames: 10, scale: 3 }]);
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill('too-close');
      await page.getByTestId('enroll-next').click();
      await page.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('enroll-face-start').click();
      await page.waitForFunction(() => /Afaste-se/.test(document.querySelector('[data-testid="enroll-face-feedback"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
      await shot(page, 'trust-05-face-too-close');
    }, 180_000);

    it('refuses "Capturar agora" on an empty frame, and auto-captures a face that fills the oval after a countdown', async () => {
      const page = await kiosk([{ photo: FACE, frames: 10, kind: 'empty' }]);
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill('empty-frame');
      await page.getByTestId('enroll-next').click();
      await page.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('enroll-face-start').click();
      await page.waitForFunction(() => /Nenhum rosto/.test(document.querySelector('[data-testid="enroll-face-feedback"]')?.textContent ?? ''), undefined, { timeout: 60_000 });
      await page.getByTestId('enroll-face-capture').click();
      await page.getByTestId('enroll-face-refused').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('enroll-face-captured').count()).toBe(0);
      expect(await visibleText(page, '[data-testid="enroll-face-refused"]')).toMatch(/Foto não tirada/);
      await shot(page, 'trust-06-face-empty-refused');

      const good = await kiosk([{ photo: FACE, frames: 10 }]);
      await good.getByTestId('tile-enroll').click();
      await good.getByTestId('enroll-extid').fill('good-face');
      await good.getByTestId('enroll-next').click();
      await good.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
      await good.getByTestId('enroll-face-start').click();
      await good.getByTestId('enroll-face-countdown').waitFor({ timeout: 60_000 });
      await shot(good, 'trust-07-face-countdown');
      await good.getByTestId('enroll-face-captured').waitFor({ timeout: 30_000 });
      expect(await good.getByTestId('enroll-face-warning').count()).toBe(0);
      // The auto-captured face passes the station's quality gate: it enrolls.
      await good.getByTestId('enroll-next').click();
      await good.getByTestId('enroll-skip').click();
      await good.getByTestId('enroll-skip').click();
      await expect.poll(() => good.getByTestId('enroll-confirm').isEnabled(), { timeout: 60_000 }).toBe(true);
      await good.getByTestId('enroll-confirm').click();
      await good.getByTestId('enroll-result').waitFor({ timeout: 60_000 });
      expect(await visibleText(good, '[data-testid="enroll-result"]')).toContain('Pessoa cadastrada');
    }, 300_000);

    /**
     * Opens the enroll face step on a camera playing `segments`, waits for the hint `feedback`
     * (its Portuguese text `text`), checks over `watchMs` that nothing is auto-captured, then
     * captures by hand: the photo is kept with a warning naming the problem.
     */
    async function hint(segments: Segment[], extId: string, feedback: string, text: RegExp, name: string, watchMs = 5000) {
      const page = await kiosk(segments);
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill(extId);
      await page.getByTestId('enroll-next').click();
      await page.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('enroll-face-start').click();
      const fb = page.getByTestId('enroll-face-feedback');
      await page.locator(`[data-testid="enroll-face-feedback"][data-feedback="${feedback}"]`).waitFor({ timeout: 60_000 });
      expect(await fb.innerText()).toMatch(text);
      await shot(page, name);
      await page.waitForTimeout(watchMs);
      expect(await page.getByTestId('enroll-face-captured').count()).toBe(0);
      expect(await fb.getAttribute('data-feedback')).toBe(feedback);
      await page.getByTestId('enroll-face-capture').click();
      await page.getByTestId('enroll-face-captured').waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('enroll-face-warning').getAttribute('data-feedback')).toBe(feedback);
      expect(await visibleText(page, '[data-testid="enroll-face-warning"]')).toMatch(/Atenção, a foto pode ser recusada/);
      return page;
    }

    it('says "Olhe de frente" for a genuinely turned head (lfw-dev photo, about 55° of yaw by the landmark estimate) and does not capture it', async () => {
      await hint([{ photo: lfw('Michael_Linscott', 1), frames: 10 }], 'turned-head', 'headTurned', /Olhe de frente para a câmera/, 'trust-27-face-head-turned');
    }, 240_000);

    it('says the image is blurred for an out-of-focus face (the good face blurred, sigma 4 px) and does not capture it', async () => {
      await hint([{ photo: FACE, frames: 10, blur: 4 }], 'blurred-face', 'blurry', /Imagem borrada/, 'trust-28-face-blurred');
    }, 240_000);

    it('a face the station refuses at enrollment is explained by the limit it failed (a photo blurred, sigma 2 px)', async () => {
      const sharp = (await import('sharp')).default;
      const blurred = path.join(tmp, 'blurred-face.jpg');
      await writeFile(blurred, await sharp(FACE).blur(2).jpeg().toBuffer());
      const page = await kiosk([{ photo: FACE, frames: 10 }]);
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill('refused-blurred');
      await page.getByTestId('enroll-next').click();
      await page.getByTestId('enroll-face-file').setInputFiles(blurred);
      await page.getByTestId('enroll-face-captured').waitFor();
      await page.getByTestId('enroll-next').click();
      await page.getByTestId('enroll-skip').click();
      await page.getByTestId('enroll-skip').click();
      await expect.poll(() => page.getByTestId('enroll-confirm').isEnabled(), { timeout: 60_000 }).toBe(true);
      await page.getByTestId('enroll-confirm').click();
      await page.getByTestId('enroll-result').waitFor({ timeout: 60_000 });
      const text = await visibleText(page, '[data-testid="enroll-result"]');
      expect(text).toMatch(/A estação recusou o rosto: imagem borrada\. Capture de novo\./);
      expect(text).not.toMatch(JARGON);
      expect(text).toMatch(/Pessoa não cadastrada/);
      expect((await apiGet('/api/v1/services/face/templates/count/refused-blurred')).count ?? 0).toBe(0);
      await shot(page, 'trust-32-face-refused-by-station');
      // Back to the face step for a new capture; the identifier stays.
      await page.getByTestId('enroll-retry').click();
      await page.getByTestId('enroll-face-start').waitFor();
      expect(await page.getByTestId('enroll-face-captured').count()).toBe(0);
      await page.getByTestId('enroll-face-file').setInputFiles(FACE);
      await page.getByTestId('enroll-face-captured').waitFor();
      await page.getByTestId('step-confirm').click();
      expect(await page.getByTestId('summary-extid').textContent()).toBe('refused-blurred');
      await expect.poll(() => page.getByTestId('enroll-confirm').isEnabled(), { timeout: 60_000 }).toBe(true);
      await page.getByTestId('enroll-confirm').click();
      await page.getByTestId('enroll-result').waitFor({ timeout: 60_000 });
      expect(await visibleText(page, '[data-testid="enroll-result"]')).toContain('Pessoa cadastrada');
    }, 240_000);

    it('says "Centralize o rosto" for a face of the right size beside the oval, and does not capture it', async () => {
      await hint([{ photo: FACE, frames: 10, scale: 0.9, shiftX: 90 }], 'off-centre', 'offCentre', /Centralize o rosto no oval/, 'trust-31-face-off-centre');
    }, 240_000);

    it('says "Abra bem os olhos" for eyes shut (a genuine lfw-dev photo, eyes squeezed shut) and does not capture it', async () => {
      await hint([{ photo: lfw('Rubens_Barrichello', 12), frames: 10 }], 'eyes-shut', 'eyesClosed', /Abra bem os olhos/, 'trust-29-face-eyes-closed');
    }, 240_000);
  });

  describe('4-5. the document step and session expiry (one enrollment)', () => {
    let page: Page;
    let cpf = '';
    it('keeps the CNH with the enrollment and shows the card image beside the fields', async () => {
      page = await kiosk([{ photo: FACE, frames: 10 }], { keepOpen: true });
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill('cnh-person');
      await page.getByTestId('enroll-next').click();
      await page.getByTestId('enroll-face-file').setInputFiles(lfw('Silvio_Berlusconi', 6));
      await page.getByTestId('enroll-face-captured').waitFor();
      await page.getByTestId('enroll-next').click();
      await page.getByTestId('enroll-skip').click();
      await page.getByTestId('cnh-file').setInputFiles(cnhFile);
      await page.getByTestId('cnh-fields').waitFor({ timeout: 180_000 });
      const image = await page.getByTestId('cnh-image').boundingBox();
      const table = await page.getByTestId('cnh-fields').boundingBox();
      expect(image && table && image.x + image.width <= table.x + 1).toBe(true);
      cpf = await page.locator('#cnh-input-cpf').inputValue();
      expect(cpf.length).toBeGreaterThan(5);
      // Selfie <-> CNH photo: the face captured at step 2 is the card holder's (another photo of him).
      expect(await page.getByTestId('cnh-photo').getAttribute('data-photo')).toBe('match');
      expect(await visibleText(page, '[data-testid="cnh-photo"]')).toMatch(/confere com o rosto capturado/);
      await shot(page, 'trust-08-enroll-document');
      const validity = await page.locator('#cnh-input-data_validade').inputValue();
      await page.getByTestId('enroll-next').click();
      expect(await visibleText(page, '[data-testid="summary-document"]')).toContain(cpf);
      // A card past its validity is flagged in the summary (the synthetic card of seed 11 expired in 2023).
      const [d, m, y] = validity.split('/').map(Number);
      const expired = !!y && new Date(y, m! - 1, d! + 1) <= new Date();
      expect(await page.getByTestId('summary-expired').count()).toBe(expired ? 1 : 0);
      expect(await page.locator('[data-testid="summary-photo"] [data-testid="cnh-photo"]').getAttribute('data-photo')).toBe('match');
      // Back to the document step: the read is still there.
      await page.getByTestId('step-document').click();
      await page.getByTestId('cnh-fields').waitFor({ timeout: 5000 });
      expect(await page.locator('#cnh-input-cpf').inputValue()).toBe(cpf);
      await page.getByTestId('step-confirm').click();
      await shot(page, 'trust-09-enroll-summary');
    }, 300_000);

    it('asks for the credential again when the session expires and keeps the enrollment in progress', async () => {
      // The search for similar enrollments has finished (the confirm button is enabled again).
      await expect.poll(() => page.getByTestId('enroll-confirm').isEnabled(), { timeout: 60_000 }).toBe(true);
      await page.evaluate(() => sessionStorage.setItem('biostation.token', 'expired.token.value'));
      // The status bar's 5 s poll may meet the 401 before the click lands: the dialog then opens first and
      // covers the button (a click that cannot land throws and clicks nothing). Either way the dialog comes,
      // and the enrollment underneath must survive it.
      const clicked = await page.getByTestId('enroll-confirm').click({ timeout: 10_000 }).then(() => true, () => false);
      await page.getByTestId('relogin').waitFor({ timeout: 30_000 });
      expect(await visibleText(page, '[data-testid="relogin"]')).toMatch(/Sessão expirada/);
      await shot(page, 'trust-10-session-expired');
      await page.getByTestId('relogin-secret').fill(station.demo.secret);
      await page.getByTestId('relogin-submit').click();
      if (!clicked) {
        await page.getByTestId('relogin').waitFor({ state: 'detached', timeout: 30_000 });
        await page.getByTestId('enroll-confirm').click();
      }
      await page.getByTestId('enroll-result').waitFor({ timeout: 120_000 });
      expect(await visibleText(page, '[data-testid="enroll-result"]')).toContain('Pessoa cadastrada');
      expect(await page.getByTestId('summary-extid').textContent()).toBe('cnh-person');
      expect((await apiGet('/api/v1/services/face/templates/count/cnh-person')).count).toBeGreaterThan(0);
      // Finding 7: the confirmed CNH is kept with the person (fields and photo check, no image).
      expect(await visibleText(page, '[data-testid="enroll-result"]')).toMatch(/Documento: dados do documento guardados com o cadastro/);
      const { document } = await apiGet('/api/v1/persons/cnh-person/document');
      expect(document.kind).toBe('CNH');
      expect(document.fields.cpf).toBe(cpf);
      expect(document.fields.nome_completo?.length).toBeGreaterThan(3);
      expect(document.photoCheck).toMatchObject({ found: true, matched: true });
      expect(JSON.stringify(document)).not.toMatch(/base64|data:image/);
      await shot(page, 'trust-30-enroll-document-kept');
      // Identify finds the person and shows the document on file, for the clerk to hold against the customer's.
      await page.keyboard.press('Escape');
      await page.getByTestId('tile-identify').click();
      await page.getByTestId('identify-face-file').setInputFiles(lfw('Silvio_Berlusconi', 6));
      await page.getByTestId('identify-face-captured').waitFor();
      await page.getByTestId('identify-submit').click();
      await page.getByTestId('identify-result').waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('identify-extid').textContent()).toBe('cnh-person');
      await page.getByTestId('person-document').waitFor({ timeout: 15_000 });
      expect(await visibleText(page, '[data-testid="person-document"]')).toContain(`CPF ${cpf}`);
      await shot(page, 'trust-33-identify-document-on-file');
    }, 180_000);
  });

  it('6a. tells camera refused from no camera, with a fix; the document camera button explains too', async () => {
    const denied = await kiosk('denied');
    await denied.getByTestId('tile-enroll').click();
    await denied.getByTestId('enroll-extid').fill('cam-denied');
    await denied.getByTestId('enroll-next').click();
    await denied.getByTestId('enroll-face-start').click();
    const deniedNote = denied.getByTestId('enroll-face-camera-error');
    await deniedNote.waitFor({ timeout: 30_000 });
    expect(await deniedNote.getAttribute('data-code')).toBe('PERMISSION_DENIED');
    const deniedText = await visibleText(denied, '[data-testid="enroll-face-camera-error"]');
    expect(deniedText).toMatch(/bloqueado/);
    expect(deniedText).toMatch(/Permita a câmera/);
    await shot(denied, 'trust-11-camera-denied');

    const none = await kiosk('none');
    await none.getByTestId('tile-enroll').click();
    await none.getByTestId('enroll-extid').fill('cam-none');
    await none.getByTestId('enroll-next').click();
    await none.getByTestId('enroll-face-start').click();
    const noneNote = none.getByTestId('enroll-face-camera-error');
    await noneNote.waitFor({ timeout: 30_000 });
    expect(await noneNote.getAttribute('data-code')).toBe('NO_CAMERA');
    const noneText = await visibleText(none, '[data-testid="enroll-face-camera-error"]');
    expect(noneText).toMatch(/Nenhuma câmera encontrada/);
    expect(noneText).toMatch(/cabo USB/);
    expect(noneText).not.toBe(deniedText);
    await shot(none, 'trust-12-camera-none');

    await none.keyboard.press('Escape');
    await none.getByTestId('tile-document').click();
    await none.getByTestId('cnh-camera').click();
    await none.getByTestId('cnh-camera-error').waitFor({ timeout: 30_000 });
    expect(await none.getByTestId('cnh-camera-error').getAttribute('data-code')).toBe('NO_CAMERA');
    await shot(none, 'trust-13-document-no-camera');
  }, 180_000);

  it('6b. drops an unplugged reader from the list and explains in plain words', async () => {
    const dir = path.join(tmp, 'readers-unplug', 'usb-left');
    await mkdir(dir, { recursive: true });
    await copyFile(fvc('102_1.png'), path.join(dir, '102_1.png'));
    const second = await startReaderBridgeProcess(path.dirname(dir));
    const page = await kiosk([{ photo: FACE, frames: 10 }], { readers: second.url });
    await expect.poll(() => page.getByTestId('status-readers').textContent(), { timeout: 15_000 }).toContain('usb-left');
    await page.getByTestId('tile-enroll').click();
    await page.getByTestId('enroll-extid').fill('unplug');
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-skip').click();
    await page.getByTestId('enroll-finger-capture').waitFor();
    // Unplug: the reader service goes away with the reader.
    await second.stop();
    await expect.poll(() => page.getByTestId('status-readers').textContent(), { timeout: 15_000 }).toBe('nenhum');
    await expect.poll(() => page.getByTestId('enroll-finger-capture').count(), { timeout: 15_000 }).toBe(0);
    expect(await visibleText(page)).toMatch(/Nenhum leitor conectado/);
    expect(await visibleText(page)).not.toMatch(/Failed to fetch/);
    await shot(page, 'trust-14-reader-unplugged');
  }, 120_000);

  it('8. speaks plain Portuguese: no notation, field names or raw codes; a confidence word, numbers only in details; "Próximo cliente" clears everything', async () => {
    const page = await kiosk([{ photo: FACE, frames: 10 }]);
    expect(await visibleText(page)).not.toMatch(JARGON);
    // The Admin tile promises only what the Admin screen does.
    const adminSub = await visibleText(page, '[data-testid="tile-admin"]');
    await page.getByTestId('tile-admin').click();
    await page.getByTestId('admin-secret').fill(station.adminSecret);
    await page.getByTestId('admin-unlock-submit').click();
    await page.getByTestId('admin-faces').waitFor();
    if (/Aplicações/.test(adminSub)) expect(await page.getByTestId('admin-apps').count()).toBe(1);
    expect(await visibleText(page)).not.toMatch(JARGON);
    await page.keyboard.press('Escape');
    for (const tile of ['enroll', 'identify', 'compare', 'document']) {
      await page.getByTestId(`tile-${tile}`).click();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await visibleText(page), tile).not.toMatch(JARGON);
      await page.keyboard.press('Escape');
    }
    await page.getByTestId('tile-verify').click();
    expect(await visibleText(page)).not.toMatch(JARGON);
    await page.getByTestId('verify-extid').fill('nobody-here');
    await page.getByTestId('verify-face-file').setInputFiles(lfw('Tony_Blair', 32));
    await page.getByTestId('verify-face-captured').waitFor();
    await page.getByTestId('verify-submit').click();
    await page.getByTestId('error').waitFor({ timeout: 60_000 });
    expect(await visibleText(page, '[data-testid="error"]')).toContain('Nenhuma pessoa com este identificador');
    expect(await visibleText(page)).not.toMatch(JARGON);
    await page.getByTestId('verify-extid').fill('blair-1');
    await page.getByTestId('verify-submit').click();
    const result = page.getByTestId('verify-result');
    await result.waitFor({ timeout: 60_000 });
    const card = await visibleText(page, '[data-testid="verify-result"]');
    expect(card).toMatch(/Identidade confirmada/);
    expect(card).toMatch(/Confiança: (alta|média|baixa)/);
    expect(card).not.toMatch(/\d[.,]\d{3}|limiar/);
    await page.getByText('Detalhes técnicos').click();
    expect(await visibleText(page, '[data-testid="verify-result"]')).toMatch(/Pontuação: \d[.,]\d{3}/);
    await shot(page, 'trust-15-verify-plain');
    await page.getByTestId('next-customer').click();
    await page.getByTestId('tile-verify').waitFor();
    await page.getByTestId('tile-verify').click();
    expect(await page.getByTestId('verify-extid').inputValue()).toBe('');
    expect(await page.getByTestId('verify-face-captured').count()).toBe(0);
    expect(await result.count()).toBe(0);
    await shot(page, 'trust-16-next-customer');
  }, 240_000);

  it('9. de-duplication: the same face under a second identifier shows the first before the clerk confirms, and again after', async () => {
    const page = await kiosk([{ photo: FACE, frames: 10 }]);
    await page.getByTestId('tile-enroll').click();
    await page.getByTestId('enroll-extid').fill('blair-2');
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-face-file').setInputFiles(lfw('Tony_Blair', 48));
    await page.getByTestId('enroll-face-captured').waitFor();
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-skip').click();
    await page.getByTestId('enroll-skip').click();
    const before = page.getByTestId('enroll-duplicates');
    await before.waitFor({ timeout: 60_000 });
    expect(await visibleText(page, '[data-testid="enroll-duplicates"]')).toMatch(/blair-1 · mesmo rosto/);
    expect(await page.getByTestId('enroll-confirm').textContent()).toBe('Cadastrar mesmo assim');
    await shot(page, 'trust-17-dedup-before-confirm');
    await page.getByTestId('enroll-confirm').click();
    await page.getByTestId('enroll-result').waitFor({ timeout: 60_000 });
    // Policy warn (the default): enrolled, and the station's answer names the first person too.
    expect(await visibleText(page, '[data-testid="enroll-result"]')).toContain('Pessoa cadastrada');
    expect(await visibleText(page, '[data-testid="enroll-reported-duplicates"]')).toContain('blair-1');
    await shot(page, 'trust-18-dedup-after');

    // Identify now finds both: the verdict names the best and lists the other above the threshold.
    await page.keyboard.press('Escape');
    await page.getByTestId('tile-identify').click();
    await page.getByTestId('identify-face-file').setInputFiles(lfw('Tony_Blair', 32));
    await page.getByTestId('identify-face-captured').waitFor();
    await page.getByTestId('identify-submit').click();
    await page.getByTestId('identify-result').waitFor({ timeout: 60_000 });
    const best = await page.getByTestId('identify-extid').textContent();
    expect(['blair-1', 'blair-2']).toContain(best);
    expect(await visibleText(page, '[data-testid="identify-candidates"]')).toContain(best === 'blair-1' ? 'blair-2' : 'blair-1');
    await shot(page, 'trust-19-identify-candidates');
  }, 240_000);

  it('10. Admin: needs the station-admin secret (not the application one); lists, creates, rotates, sets de-duplication and disables applications; the last sync\'s counts', async () => {
    const page = await kiosk([{ photo: FACE, frames: 10 }]);
    page.on('dialog', (d) => void d.accept());
    const record = { peerUrl: 'http://10.0.0.2:8080', direction: 'pull', startedAt: '2026-11-24T10:00:00.000Z', finishedAt: '2026-11-24T10:00:05.000Z', pulled: 11, created: 3, updated: 1, deleted: 2, skipped: 4, refused: 1, error: null };
    await page.route('**/api/v1/sync/status', (route) => route.fulfill({ json: { peers: [], lastSync: record, history: [record] } }));
    await page.getByTestId('tile-admin').click();
    await page.getByTestId('admin-unlock').waitFor();
    expect(await page.getByTestId('admin-faces').count()).toBe(0);
    await shot(page, 'trust-20-admin-locked');
    await page.getByTestId('admin-secret').fill(station.demo.secret);
    await page.getByTestId('admin-unlock-submit').click();
    await page.getByTestId('error').waitFor();
    expect(await page.getByTestId('admin-faces').count()).toBe(0);
    await page.getByTestId('admin-secret').fill(station.adminSecret);
    await page.getByTestId('admin-unlock-submit').click();
    await page.getByTestId('admin-apps-table').waitFor({ timeout: 15_000 });
    expect(await visibleText(page, '[data-testid="admin-apps-table"]')).toContain('demo');
    // The last sync's counts, deleted and refused included: the record as GET /api/v1/sync/status
    // gives it (src/http/routes/sync.ts SyncRecordSchema), served by a route stub (one station, no peer here).
    expect(await visibleText(page, '[data-testid="admin-sync-counts"]')).toBe('3 novos, 1 atualizados, 2 apagados, 4 sem mudança, 1 recusados (outra versão do modelo)');

    await page.getByTestId('admin-app-name').fill('balcao-2');
    await page.getByTestId('admin-app-create').click();
    await page.getByTestId('admin-app-issued').waitFor({ timeout: 60_000 });
    const key = (await page.getByTestId('admin-issued-key').textContent())!;
    const first = (await page.getByTestId('admin-issued-secret').textContent())!;
    const token = (secret: string) => fetch(`${station.url}/api/v1/app-credentials/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ key, secret }),
    }).then((r) => r.status);
    expect(await token(first)).toBe(200);
    const row = page.getByTestId('admin-app-balcao-2');
    await row.waitFor();
    await shot(page, 'trust-21-admin-created');

    await row.getByTestId('admin-app-rotate').click();
    await expect.poll(async () => page.getByTestId('admin-issued-secret').textContent(), { timeout: 60_000 }).not.toBe(first);
    const second = (await page.getByTestId('admin-issued-secret').textContent())!;
    expect(await token(first)).toBe(401);
    expect(await token(second)).toBe(200);

    await row.getByTestId('admin-app-dedup').selectOption('block');
    await expect.poll(async () => {
      const apps = await (await fetch(`${station.url}/api/v1/admin/applications`, { headers: { Authorization: `Bearer ${await page.evaluate(() => sessionStorage.getItem('biostation.adminToken'))}` } })).json() as { applications: Array<{ key: string; dedupPolicy: string }> };
      return apps.applications.find((a) => a.key === key)?.dedupPolicy;
    }, { timeout: 30_000 }).toBe('block');

    await row.getByTestId('admin-app-disable').click();
    await expect.poll(() => row.getByTestId('admin-app-state').textContent(), { timeout: 30_000 }).toBe('desativada');
    expect(await token(second)).toBe(401);
    await shot(page, 'trust-22-admin-disabled');
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'trust-23-admin-1920x1080');
    await page.getByTestId('admin-lock').click();
    await page.getByTestId('admin-unlock').waitFor();
  }, 180_000);

  it('11. selfie <-> CNH photo: another face does not match, a card without a photo says so', async () => {
    const page = await kiosk([{ photo: FACE, frames: 10 }]);
    await page.getByTestId('tile-enroll').click();
    await page.getByTestId('enroll-extid').fill('wrong-card');
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-face-file').setInputFiles(lfw('Tony_Blair', 32));
    await page.getByTestId('enroll-face-captured').waitFor();
    await page.getByTestId('enroll-next').click();
    await page.getByTestId('enroll-skip').click();
    await page.getByTestId('cnh-file').setInputFiles(cnhFile);
    await page.getByTestId('cnh-fields').waitFor({ timeout: 180_000 });
    expect(await page.getByTestId('cnh-photo').getAttribute('data-photo')).toBe('nomatch');
    expect(await visibleText(page, '[data-testid="cnh-photo"]')).toMatch(/NÃO confere/);
    await shot(page, 'trust-24-cnh-photo-mismatch');

    await page.keyboard.press('Escape');
    await page.getByTestId('tile-document').click();
    await page.getByTestId('cnh-file').setInputFiles(plainCnhFile);
    await page.getByTestId('cnh-fields').waitFor({ timeout: 180_000 });
    expect(await page.getByTestId('cnh-photo').getAttribute('data-photo')).toBe('none');
    await shot(page, 'trust-25-cnh-no-photo');
    // A tap on the card shows it large above the fields (the clerk compares it with the customer's card), another tap shrinks it.
    const small = (await page.getByTestId('cnh-image').boundingBox())!.width;
    await page.getByTestId('cnh-zoom').click();
    await expect.poll(async () => (await page.getByTestId('cnh-image').boundingBox())!.width).toBeGreaterThan(small * 1.5);
    await shot(page, 'trust-34-cnh-card-enlarged');
    await page.getByTestId('cnh-zoom').click();
    await expect.poll(async () => (await page.getByTestId('cnh-image').boundingBox())!.width).toBeLessThan(small * 1.1);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await shot(page, 'trust-26-document-1920x1080');
  }, 400_000);

  it('12. every screen at 1920x1080 and 1280x800: no sideways scroll, screenshots', async () => {
    for (const viewport of [{ width: 1920, height: 1080 }, { width: 1280, height: 800 }]) {
      const tag = `${viewport.width}x${viewport.height}`;
      const checkOn = async (p: Page, name: string) => {
        const { scroll, width } = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
        expect(scroll, name).toBeLessThanOrEqual(width);
        await shot(p, `screen-${tag}-${name}`);
      };
      const page = await kiosk([{ photo: FACE, frames: 10 }], { viewport, readers: bridge.url, atLogin: (p) => checkOn(p, 'login') });
      const check = (name: string) => checkOn(page, name);
      await check('home');
      await page.getByTestId('tile-enroll').click();
      await page.getByTestId('enroll-extid').fill('screens-1');
      await check('enroll-id');
      await page.getByTestId('enroll-next').click();
      await page.locator('[data-testid="enroll-face-start"][data-detector="ready"]').waitFor({ timeout: 60_000 });
      await page.getByTestId('enroll-face-start').click();
      await page.getByTestId('enroll-face-captured').waitFor({ timeout: 60_000 });
      await check('enroll-face');
      await page.getByTestId('enroll-next').click();
      await page.getByTestId('enroll-finger-capture').click();
      await page.getByTestId('enroll-finger-item').first().waitFor({ timeout: 20_000 });
      await check('enroll-fingers');
      await page.getByTestId('enroll-next').click();
      await check('enroll-document');
      await page.getByTestId('enroll-skip').click();
      await page.getByTestId('enroll-confirm').waitFor();
      // The screen as the clerk decides on it: the search for similar enrollments has finished.
      await expect.poll(() => page.getByTestId('enroll-confirm').isEnabled(), { timeout: 60_000 }).toBe(true);
      await check('enroll-confirm');
      for (const tile of ['verify', 'identify', 'compare', 'document', 'admin']) {
        await page.keyboard.press('Escape');
        await page.getByTestId(`tile-${tile}`).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        await check(tile);
      }
      // Admin unlocked (the locked screen is the 'admin' shot above).
      await page.getByTestId('admin-secret').fill(station.adminSecret);
      await page.getByTestId('admin-unlock-submit').click();
      await page.getByTestId('admin-apps-table').waitFor({ timeout: 15_000 });
      await expect.poll(() => page.getByTestId('admin-fingers').textContent(), { timeout: 15_000 }).not.toBe('—');
      await page.getByTestId('admin-sync-nopeer').waitFor({ timeout: 15_000 });
      await check('admin-unlocked');
      await page.getByTestId('admin-lock').click();
      await page.getByTestId('admin-unlock').waitFor();
      // Large text and high contrast: bigger type, still no sideways scroll.
      await page.keyboard.press('Escape');
      const before = await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize));
      await page.getByTestId('large-text').click();
      expect(await page.evaluate(() => parseFloat(getComputedStyle(document.documentElement).fontSize))).toBeGreaterThan(before);
      await check('home-large-text');
      await page.getByTestId('tile-verify').click();
      await check('verify-large-text');
      await page.getByTestId('large-text').click();
    }
  }, 300_000);
});
