/**
 * final24's own effects (test/fixtures/cnh/final24.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-fifth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final24Draws, swung, tonerStarved, windowed } from '../fixtures/cnh/final24.js';
import { rng } from '../fixtures/cnh/people.js';
import { barCard, rawPixels } from './fixture-card.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A 1200 x 400 RGB frame (a phone's frame of a card is 1000-2600 px wide): a grey ground with black dots every 10 px (PNG). */
async function dottedFrame(): Promise<Buffer> {
  const w = 1200, h = 400, raw = Buffer.alloc(w * h * 3, 0x90);
  for (let y = 5; y < h; y += 10) for (let x = 5; x < w; x += 10) for (let dy = 0; dy < 2; dy++) raw.fill(0, ((y + dy) * w + x) * 3, ((y + dy) * w + x + 2) * 3);
  return sharp(raw, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
}

describe('final24 effects', () => {
  it('a toner-starved copy is grey, keeps full ink outside its bands and pales it inside, and keeps the card\'s size and alpha', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const card = await barCard('#d8e4f0');
      const before = await rawPixels(card);
      const { data, w, h, ch } = await rawPixels(await tonerStarved(card, rng(seed)));
      expect([w, h, ch]).toEqual([640, 400, 4]);
      // The bars' ink in 16 strips across and 16 down: dark in some, pale in others.
      const across = Array.from({ length: 16 }, () => [0, 0]), down = Array.from({ length: 16 }, () => [0, 0]);
      let alphaChanged = 0, coloured = 0;
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
        const i = (y * w + x) * 4;
        if (data[i + 3] !== before.data[i + 3]) alphaChanged++;
        if (data[i + 3] < 128) continue;
        if (data[i + 1] !== data[i] || data[i + 2] !== data[i]) coloured++;
        if (before.data[i] !== 0x11) continue;
        across[Math.floor((16 * x) / w)][0] += data[i]; across[Math.floor((16 * x) / w)][1]++;
        down[Math.floor((16 * y) / h)][0] += data[i]; down[Math.floor((16 * y) / h)][1]++;
      }
      expect([alphaChanged, coloured]).toEqual([0, 0]);
      const spread = (s: number[][]): number => { const m = s.filter(([, n]) => n > 0).map(([v, n]) => v / n); return Math.max(...m) - Math.min(...m); };
      expect(Math.max(spread(across), spread(down))).toBeGreaterThan(60);
      // Full ink somewhere: the darkest strip is nearly black.
      const darkest = Math.min(...[...across, ...down].filter(([, n]) => n > 0).map(([v, n]) => v / n));
      expect(darkest).toBeLessThan(60);
    }
  });

  it('a window\'s reflection only lightens the frame, over part of it, with dark mullions inside it', async () => {
    const w = 400, h = 300, png = await sharp({ create: { width: w, height: h, channels: 3, background: '#505050' } }).png().toBuffer();
    for (const seed of [1, 2, 3, 4, 5]) {
      const out = await windowed({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w: ow, h: oh, ch } = await rawPixels(out.bytes);
      expect([ow, oh]).toEqual([w, h]);
      let lit = 0, darker = 0;
      for (let p = 0; p < w * h; p++) {
        if (data[p * ch] < 0x50) darker++;
        if (data[p * ch] > 0x50 + 30) lit++;
      }
      expect(darker).toBe(0);
      expect(lit).toBeGreaterThan(0.04 * w * h);
      expect(lit).toBeLessThan(0.7 * w * h);
      // A mullion: along some row, a lit run, an unlit gap of a few px, then a lit run again.
      let mullion = false;
      for (let y = 0; y < h && !mullion; y += 3) {
        const row = Array.from({ length: w }, (_, x) => data[(y * w + x) * ch] > 0x50 + 30);
        const s = row.map((v) => (v ? '1' : '0')).join('');
        mullion = /1{10}0{1,40}1{10}/.test(s);
      }
      expect(mullion).toBe(true);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await windowed({ bytes: jpeg, mime: 'image/jpeg' }, rng(6))).mime).toBe('image/jpeg');
  });

  it('a phone\'s turn blurs the frame (less squared gradient), keeps its mean light, its kind and its size', async () => {
    const png = await dottedFrame();
    const before = await rawPixels(png);
    const energy = (d: Buffer, w: number, h: number, ch: number): number => {
      let e = 0;
      for (let y = 1; y < h; y++) for (let x = 1; x < w; x++) {
        const v = d[(y * w + x) * ch];
        e += (v - d[(y * w + x - 1) * ch]) ** 2 + (v - d[((y - 1) * w + x) * ch]) ** 2;
      }
      return e;
    };
    const mean = (d: Buffer): number => d.reduce((a, b) => a + b, 0) / d.length;
    for (const seed of [1, 2, 3, 4]) {
      const out = await swung({ bytes: png, mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w, h, ch } = await rawPixels(out.bytes);
      expect([w, h]).toEqual([before.w, before.h]);
      expect(energy(data, w, h, ch)).toBeLessThan(0.9 * energy(before.data, w, h, before.ch));
      expect(Math.abs(mean(data) - mean(before.data))).toBeLessThan(3);
    }
    const jpeg = await sharp(png).jpeg({ quality: 95 }).toBuffer();
    expect((await swung({ bytes: jpeg, mime: 'image/jpeg' }, rng(5))).mime).toBe('image/jpeg');
  });

  it('a text-layer CNH-e writes the ʻokina, the kahakō, Đ, Ŋ, Ŧ and the hooked Ɓ, Ɗ, Ƙ, and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'KAʻIULANI MĀLIA KĒHAU PŌHAKU PŪKUI', size: 30 }, { x: 100, y: 200, text: 'SUOĐÁ GUOŦŦÁ ČUOŊŊÁ ƊANLADI ƁALARABE ƘWANKWASO', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('KAʻIULANI MĀLIA KĒHAU PŌHAKU PŪKUI');
      expect(text).toContain('SUOĐÁ GUOŦŦÁ ČUOŊŊÁ ƊANLADI ƁALARABE ƘWANKWASO');
    }
  });

  it('copies worn physical cards only, and reflects and turns the phone\'s own shots only', () => {
    let copies = 0, windows = 0, turns = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'screenshot', 'clean']) {
        const d = final24Draws(c, '2022', rng(i));
        expect(d.tonerStarved || d.windowed || d.swung).toBe(false);
      }
      for (const c of ['scanner', 'jpeg-low', 'blur']) {
        const d = final24Draws(c, 'old', rng(i));
        expect(d.windowed || d.swung).toBe(false);
      }
      const shot = final24Draws('photo', 'old', rng(i));
      if (shot.tonerStarved) copies++;
      if (shot.windowed) windows++;
      if (shot.swung) turns++;
    }
    expect(copies).toBeGreaterThan(80);
    expect(windows).toBeGreaterThan(95);
    expect(turns).toBeGreaterThan(95);
  });
});
