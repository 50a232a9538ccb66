/**
 * final26's own effects (test/fixtures/cnh/final26.ts, final26-screen.ts), checked on small synthetic
 * frames, never on the part's documents (those are for the lead's single run at the twenty-seventh round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drumGhost, final26Draws, ghosted, lensSmudged } from '../fixtures/cnh/final26.js';
import { darkened, desktopShot, subpixel } from '../fixtures/cnh/final26-screen.js';
import { model2022Front } from '../fixtures/cnh/layout.js';
import { FINAL26_FALLBACK, FINAL26_NAMES, fakePerson, rng } from '../fixtures/cnh/people.js';
import { rawPixels } from './fixture-card.js';
import { pdfOf, printed } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

const luma = (d: Buffer, i: number): number => 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];

/** A 640 x 400 white card (RGBA PNG) with dark blocks of random widths along rows 40-120 (a line of "type"). */
async function typedCard(): Promise<Buffer> {
  const r = rng(7);
  let blocks = '';
  for (let x = 20; x < 600; x += 8 + Math.floor(14 * r())) blocks += `<rect x="${x}" y="${40 + Math.floor(30 * r())}" width="${3 + Math.floor(5 * r())}" height="${20 + Math.floor(30 * r())}" fill="#111"/>`;
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="#fff"/>${blocks}</svg>`)).ensureAlpha().png().toBuffer();
}

describe('final26 effects', () => {
  it('sub-pixel rendering puts colour fringes on a glyph\'s edges and none on flat ground', async () => {
    const W = 200, H = 60;
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${3 * W}" height="${H}"><rect width="${3 * W}" height="${H}" fill="#fff"/><g transform="scale(3 1)"><text x="10" y="42" font-family="DejaVu Sans" font-size="30" fill="#000">KOʼÁG̃A Ɨ</text></g></svg>`;
    const hi = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
    for (const bgr of [false, true]) {
      const out = subpixel(hi, W, H, bgr);
      let edges = 0, fringe = 0, flat = 0;
      for (let p = 0; p < W * H; p++) {
        const i = p * 3, y = luma(out, i), rb = Math.abs(out[i] - out[i + 2]);
        const row = Math.floor(p / W) * 3 * W, x3 = (p % W) * 3;
        let ground = true;
        for (let j = Math.max(0, x3 - 4); j < Math.min(3 * W, x3 + 7); j++) if (hi[(row + j) * 3] !== 255) ground = false;
        if (ground) flat = Math.max(flat, rb);
        else if (y > 40 && y < 215) { edges++; fringe += rb; }
      }
      expect(edges).toBeGreaterThan(100);
      expect(fringe / edges).toBeGreaterThan(25);
      expect(flat).toBe(0);
    }
  });

  it('the dark theme darkens the card\'s ground, lightens its type and leaves its photo as it is', async () => {
    const p = fakePerson(2_900_001, false, FINAL26_NAMES);
    const panel = model2022Front(p);
    for (const theme of [{ kind: 'invert' as const }, { kind: 'remap' as const, bg: [30, 31, 34] as [number, number, number], fg: [232, 234, 237] as [number, number, number] }]) {
      const { data, info } = await sharp(await printed([panel], 'DejaVu Sans', 1, {})).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
      const before = Buffer.from(data);
      darkened(data, info.width, info.height, theme, [{ x: 38, y: 128, w: 294, h: 384 }]);
      // The ground right of the photo (x 900-1200, y 560-600: no type there) and the name's line (x 370-900, y 160-186).
      let ground = 0, n = 0, lightest = 0, lightestBefore = 255;
      for (let y = 560; y < 600; y++) for (let x = 900; x < 1200; x++) { ground += luma(data, (y * info.width + x) * 4); n++; }
      for (let y = 160; y < 186; y++) for (let x = 370; x < 900; x++) { lightest = Math.max(lightest, luma(data, (y * info.width + x) * 4)); lightestBefore = Math.min(lightestBefore, luma(before, (y * info.width + x) * 4)); }
      expect(ground / n).toBeLessThan(70);
      expect(lightest).toBeGreaterThan(190);
      expect(lightestBefore).toBeLessThan(60);
      for (let y = 200; y < 400; y += 7) for (let x = 60; x < 300; x += 7) expect(data[(y * info.width + x) * 4]).toBe(before[(y * info.width + x) * 4]);
    }
  });

  it('a desktop screenshot (here in its dark theme) is a full screen PNG whose type carries colour fringes', async () => {
    const panel = model2022Front(fakePerson(2_900_002, false, FINAL26_NAMES));
    for (const [seed, dark] of [[2, true]] as const) {
      const png = await desktopShot([panel], 'Liberation Sans', 3, rng(seed), {}, dark);
      const { data, w, h, ch } = await rawPixels(png);
      expect([[1920, 1080], [2560, 1440]]).toContainEqual([w, h]);
      // Pixels with a strong red-blue split next to a neutral one: fringes (the wallpaper's blue is smooth).
      let fringes = 0;
      for (let p = 1; p < w * h; p++) {
        const i = p * ch, j = (p - 1) * ch;
        if (Math.abs(data[i] - data[i + 2]) > 60 && Math.abs(data[j] - data[j + 2]) < 12 && Math.abs(data[i] - data[j]) > 40) fringes++;
      }
      expect(fringes).toBeGreaterThan(500);
    }
  });

  it('a drum ghost puts a faint copy of the print a drum\'s turn down the feed, found by correlation at that offset', async () => {
    const card = await typedCard();
    const before = await rawPixels(card);
    for (const seed of [1, 2, 3]) {
      const g = { ...drumGhost(rng(seed)), slip: 0 };
      delete g.smear;
      expect(g.contrast).toBeGreaterThanOrEqual(0.08);
      expect(g.contrast).toBeLessThanOrEqual(0.2);
      const { data, w, h, ch } = await rawPixels(await ghosted(card, g));
      expect([w, h, ch]).toEqual([640, 400, 4]);
      // Row profiles: the print's ink, and what the ghost added; the lag with the best match is the drum's turn.
      const ink = (d: Buffer, y: number): number => { let s = 0; for (let x = 0; x < w; x++) s += 255 - d[(y * w + x) * ch]; return s; };
      const printRows = Array.from({ length: h }, (_, y) => ink(before.data, y)), added = Array.from({ length: h }, (_, y) => ink(data, y) - printRows[y]);
      let best = 0, bestScore = -Infinity;
      for (let lag = 20; lag < 200; lag++) {
        let score = 0;
        for (let y = lag; y < h; y++) score += printRows[y - lag] * added[y];
        if (score > bestScore) { bestScore = score; best = lag; }
      }
      expect(Math.abs(best - Math.round(g.offset * h))).toBeLessThanOrEqual(1);
      // Faint: the ghost of solid type is 8-20 % of its ink.
      const y = Math.round(g.offset * h) + 60;
      const darkest = Math.min(...Array.from({ length: w }, (_, x) => data[(y * w + x) * ch]));
      expect(darkest).toBeGreaterThan(255 * 0.78);
      expect(darkest).toBeLessThan(250);
    }
  });

  it('a fuser smear trails the type down the feed inside its band only', async () => {
    const card = await typedCard();
    const g = { contrast: 0.1, offset: 0.3, slip: 0, smear: { x: 0.3, width: 40, decay: 0.95, ink: 0.6, line: 0.06 } };
    const { data, w, ch } = await rawPixels(await ghosted(card, g));
    const column = (x: number): number => { let s = 0; for (let y = 100; y < 115; y++) s += 255 - data[(y * w + x) * ch]; return s; };
    let inside = 0, outside = 0;
    for (let x = 195; x < 230; x++) inside += column(x);
    for (let x = 400; x < 435; x++) outside += column(x);
    expect(inside).toBeGreaterThan(3 * outside + 500);
  });

  it('a smudged lens lowers the contrast of the type and spreads light from a bright patch into the dark', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="800" height="400"><rect width="400" height="400" fill="#f0f0f0"/>${Array.from({ length: 20 }, (_, k) => `<rect x="${20 + k * 18}" y="100" width="4" height="200" fill="#101010"/>`).join('')}<rect x="400" width="400" height="400" fill="#1e1e1e"/><rect x="560" y="160" width="80" height="80" fill="#fafafa"/></svg>`;
    const png = await sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
    for (const seed of [1, 2, 3]) {
      const out = await lensSmudged({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w, h, ch } = await rawPixels(out.bytes);
      expect([w, h]).toEqual([800, 400]);
      const at = (x: number, y: number): number => data[(y * w + x) * ch + 1];
      // A stroke's middle against the ground between strokes: the contrast falls from 224.
      expect(at(29, 200) - at(22, 200)).toBeLessThan(215);
      expect(at(22, 200)).toBeGreaterThan(25);
      // The dark ground 12 px from the bright patch is lifted, more than far from it.
      expect(at(548, 200)).toBeGreaterThan(30 + 8);
      expect(at(548, 200)).toBeGreaterThan(at(430, 30) + 5);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await lensSmudged({ bytes: jpeg, mime: 'image/jpeg' }, rng(4))).mime).toBe('image/jpeg');
  });

  it('draws the desktop only for screenshots, the ghost for seen cards and image-only PDFs, the smudge for camera frames', () => {
    let desktops = 0, darks = 0, ghosts = 0, pdfGhosts = 0, smudges = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'clean']) {
        const d = final26Draws(c, '2022', rng(i));
        expect(d.desktop || d.dark || d.ghosted || d.smudgedLens).toBe(false);
      }
      const shot = final26Draws('screenshot', 'old', rng(i));
      expect(shot.ghosted || shot.smudgedLens).toBe(false);
      if (shot.desktop) desktops++;
      if (shot.dark) { expect(shot.desktop).toBe(true); darks++; }
      const photo = final26Draws('photo', 'old', rng(i));
      expect(photo.desktop).toBe(false);
      if (photo.ghosted) ghosts++;
      if (photo.smudgedLens) smudges++;
      const scan = final26Draws('scanner', '2022', rng(i));
      expect(scan.smudgedLens || scan.desktop).toBe(false);
      if (final26Draws('pdf-image', '2022', rng(i)).ghosted) pdfGhosts++;
    }
    expect(desktops).toBeGreaterThan(210);
    expect(darks).toBeGreaterThan(70);
    expect(ghosts).toBeGreaterThan(80);
    expect(pdfGhosts).toBeGreaterThan(120);
    expect(smudges).toBeGreaterThan(110);
  });

  it('the names are in NFC, G̃ is G and U+0303 (no precomposed letter), and a text-layer CNH-e gives every letter back', async () => {
    const words = [...FINAL26_NAMES.male, ...FINAL26_NAMES.female, ...FINAL26_NAMES.surnames, FINAL26_FALLBACK];
    for (const w of words) expect(w).toBe(w.normalize('NFC'));
    expect(words.filter((w) => w.includes('G\u0303')).length).toBeGreaterThanOrEqual(4);
    const lines = ['OG̃UAHẼ KOʼÁG̃A YVYMARÃEʼỸ ĨGUASU KŨMANDA', 'YANOMAMƗ SANƗMA XƗRƗANA', 'XIǍOLǙ JIǍ DǑNG SHǏ YǓ SHĚN ZHŪGĚ'];
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
