/**
 * final27's own effects (test/fixtures/cnh/final27.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-eighth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final27Draws, holderWindow, portraitBlurred, scanApp } from '../fixtures/cnh/final27.js';
import { FINAL27_FALLBACK, FINAL27_NAMES, rng } from '../fixtures/cnh/people.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

const luma = (d: Buffer, i: number): number => 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
const raw = async (b: Buffer): Promise<{ data: Buffer; w: number; h: number; ch: number }> => {
  const { data, info } = await sharp(b).raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height, ch: info.channels };
};

describe('final27 effects', () => {
  it('a plastic ID holder lifts the blacks toward a milky grey, casts the white, bends a line by a pixel or two and leaves the card\'s outside alone', async () => {
    // A 400 x 240 RGBA card: white, a black block, a 2 px black vertical line at x = 300; a transparent border of 10 px.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="420" height="260"><rect x="10" y="10" width="400" height="240" fill="#fff"/><rect x="40" y="40" width="100" height="100" fill="#000"/><rect x="300" y="20" width="2" height="220" fill="#000"/></svg>`;
    const card = await sharp(Buffer.from(svg)).ensureAlpha().png().toBuffer();
    for (let seed = 1; seed <= 6; seed++) {
      const out = await raw(await holderWindow(card, rng(seed)));
      const px = (x: number, y: number): number => (y * out.w + x) * 4;
      expect(out.data[px(2, 2) + 3]).toBe(0);
      // The haze: black lifted by 0.10-0.25 of 205-235 (times the cast), at least 15.
      const black = luma(out.data, px(90, 90));
      expect(black).toBeGreaterThan(15);
      expect(black).toBeLessThan(65);
      // White kept light but cast: red and blue apart.
      const wi = px(200, 200);
      expect(luma(out.data, wi)).toBeGreaterThan(180);
      expect(Math.abs(out.data[wi] - out.data[wi + 2])).toBeGreaterThanOrEqual(3);
      // The line's centre (its darkness's centroid) along rows: bent, by no more than 2 px and a rounding.
      const centres: number[] = [];
      for (let y = 30; y < 230; y++) {
        let sum = 0, mass = 0;
        for (let x = 292; x < 310; x++) { const d = Math.max(0, 200 - luma(out.data, px(x, y))); sum += d * x; mass += d; }
        centres.push(sum / mass);
      }
      for (const c of centres) expect(Math.abs(c - 300.5)).toBeLessThanOrEqual(2.5);
      expect(Math.max(...centres) - Math.min(...centres)).toBeGreaterThan(0.2);
    }
  });

  it('portrait mode keeps the middle sharp and blurs the frame\'s edges', async () => {
    // 600 x 400 frame of fine black-and-white stripes (period 4 px).
    const w = 600, h = 400, data = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.fill(x % 4 < 2 ? 0 : 255, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const png = await sharp(data, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
    // Mean absolute difference between neighbours in a 20 x 20 window at (x0, y0).
    const contrast = (d: Buffer, x0: number, y0: number): number => {
      let s = 0;
      for (let y = y0; y < y0 + 20; y++) for (let x = x0; x < x0 + 20; x++) s += Math.abs(d[(y * w + x) * 3] - d[(y * w + x + 1) * 3]);
      return s / 400;
    };
    for (let seed = 1; seed <= 4; seed++) {
      const out = await portraitBlurred({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const o = await raw(out.bytes);
      expect(contrast(o.data, 290, 190)).toBeGreaterThan(0.9 * contrast(data, 290, 190));
      expect(contrast(o.data, 2, 2)).toBeLessThan(0.2 * contrast(data, 2, 2));
      expect(contrast(o.data, w - 24, h - 24)).toBeLessThan(0.2 * contrast(data, w - 24, h - 24));
    }
  });

  it('a scanner app flattens uneven light, whitens the ground, keeps the type dark; its black-and-white mode is grey', async () => {
    // 640 x 320 ground lit from 110 (left) to 230 (right), with dark type (40 below the ground) in small blocks.
    const w = 640, h = 320, data = Buffer.alloc(w * h * 3);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const ground = 110 + (120 * x) / w, type = y % 40 < 12 && x % 24 < 4;
        data.fill(Math.round(type ? ground * 0.3 : ground), (y * w + x) * 3, (y * w + x) * 3 + 3);
      }
    }
    const png = await sharp(data, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
    let monos = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const o = await raw((await scanApp({ bytes: png, mime: 'image/png' }, rng(seed))).bytes);
      const at = (x: number, y: number): number => luma(o.data, (y * w + x) * 3);
      // Ground 120 apart before, within 25 after, and near white.
      expect(Math.abs(at(600, 30) - at(40, 30))).toBeLessThan(25);
      expect(Math.min(at(40, 30), at(600, 30))).toBeGreaterThan(225);
      // Type darker than before relative to its ground: below half of it.
      expect(at(601, 5)).toBeLessThan(0.5 * at(600, 30));
      expect(at(49, 5)).toBeLessThan(0.5 * at(48, 30));
      const i = (30 * w + 300) * 3;
      if (o.data[i] === o.data[i + 1] && o.data[i + 1] === o.data[i + 2]) monos++;
    }
    expect(monos).toBeGreaterThan(0);
  });

  it('the draws: the holder on cards seen, portrait mode on the phone\'s own shots, the scanner app on camera frames but never with portrait mode', () => {
    let holders = 0, portraits = 0, apps = 0;
    for (let i = 0; i < 1000; i++) {
      const photo = final27Draws('photo', '2022', rng(i));
      if (photo.holder) holders++;
      if (photo.portrait) portraits++;
      if (photo.scanApp) apps++;
      expect(photo.portrait && photo.scanApp).toBe(false);
      const scan = final27Draws('scanner', 'old', rng(i));
      expect(scan.portrait || scan.scanApp).toBe(false);
      expect(final27Draws('blur', 'old', rng(i)).portrait).toBe(false);
      const shot = final27Draws('screenshot', '2022', rng(i));
      expect(shot.holder || shot.portrait || shot.scanApp).toBe(false);
      const pdf = final27Draws('pdf-image', '2022', rng(i));
      expect(pdf.holder || pdf.portrait || pdf.scanApp).toBe(false);
    }
    expect(holders).toBeGreaterThan(240);
    expect(holders).toBeLessThan(360);
    expect(portraits).toBeGreaterThan(290);
    expect(portraits).toBeLessThan(410);
    // 0.65 x 0.35 of them.
    expect(apps).toBeGreaterThan(170);
    expect(apps).toBeLessThan(290);
  });

  it('the names are in NFC, and a text-layer CNH-e gives their letters back (accents, hyphen, apostrophe)', async () => {
    const words = [...FINAL27_NAMES.male, ...FINAL27_NAMES.female, ...FINAL27_NAMES.surnames, FINAL27_FALLBACK];
    for (const w of words) expect(w).toBe(w.normalize('NFC'));
    const lines = ['HERMENEGILDO OTACÍLIO DE ALBERGARIA E ENCARNAÇÃO', "TEOTÔNIO DOS ÁLVARES DALL'OGLIO D'ANDREA", 'ALCINÉIA STEFÂNIA ABI-ACKEL MONTE-MOR'];
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      ...lines.map((text, k) => ({ x: 100, y: 150 + 50 * k, text, size: 30 }))] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      for (const line of lines) expect(text).toContain(line);
    }
  });
});
