/**
 * final20's own effects (test/fixtures/cnh/final20.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twenty-first round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final20Draws, moire, toneMapped, watered } from '../fixtures/cnh/final20.js';
import { rng } from '../fixtures/cnh/people.js';
import { rawPixels, ruledCard } from './fixture-card.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A flat grey 400 x 300 frame (PNG, RGB). */
const flat = (): Promise<Buffer> => sharp({ create: { width: 400, height: 300, channels: 3, background: '#c8c8c8' } }).png().toBuffer();

/** A white 400 x 300 frame with a black bar at x 180-220 (PNG, RGB): an edge for the HDR's halo. */
async function barred(): Promise<Buffer> {
  return sharp(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300"><rect width="400" height="300" fill="#b4b4b4"/><rect x="180" y="0" width="40" height="300" fill="#000"/></svg>'))
    .removeAlpha().png().toBuffer();
}

describe('final20 effects', () => {
  it('water drops change only round patches of the card, keep its size and alpha, and leave most of it as it was', async () => {
    for (const seed of [1, 2, 3]) {
      const card = await ruledCard('#fff');
      const before = await rawPixels(card);
      const after = await rawPixels(await watered(card, rng(seed)));
      expect([after.w, after.h, after.ch]).toEqual([640, 400, 4]);
      let changed = 0, opaque = 0;
      for (let p = 0; p < after.w * after.h; p++) {
        if (after.data[p * 4 + 3] === 255) opaque++;
        if (after.data[p * 4] !== before.data[p * 4]) changed++;
      }
      expect(opaque).toBe(after.w * after.h);
      // 5-18 drops of radius 3-11 px at this 640 px card: some pixels change, nearly all stay.
      expect(changed).toBeGreaterThan(50);
      expect(changed).toBeLessThan(0.1 * after.w * after.h);
    }
  });

  it('moiré puts bands of light and colour over a flat frame, within its amplitude, and keeps the kind and the size', async () => {
    const out = await moire({ bytes: await flat(), mime: 'image/png' }, rng(4));
    expect(out.mime).toBe('image/png');
    const { data, w, h, ch } = await rawPixels(out.bytes);
    expect([w, h]).toEqual([400, 300]);
    let lo = 255, hi = 0, colour = 0;
    for (let p = 0; p < w * h; p++) {
      const [r, g] = [data[p * ch], data[p * ch + 1]];
      lo = Math.min(lo, g);
      hi = Math.max(hi, g);
      if (Math.abs(r - g) > 4) colour++;
    }
    expect(hi - lo).toBeGreaterThan(20);
    expect(lo).toBeGreaterThanOrEqual(Math.floor(200 * 0.8) - 1);
    expect(hi).toBeLessThanOrEqual(Math.ceil(200 * 1.2) + 1);
    expect(colour).toBeGreaterThan(0.2 * w * h);
    const jpeg = await sharp(await flat()).jpeg({ quality: 95 }).toBuffer();
    expect((await moire({ bytes: jpeg, mime: 'image/jpeg' }, rng(5))).mime).toBe('image/jpeg');
  });

  it('HDR tone mapping lifts the grey beside a dark stroke above the grey far from it (the halo) and lifts the shadows', async () => {
    for (const seed of [1, 2, 3]) {
      const out = await toneMapped({ bytes: await barred(), mime: 'image/png' }, rng(seed));
      const { data, w, ch } = await rawPixels(out.bytes);
      const at = (x: number): number => data[(150 * w + x) * ch + 1];
      expect(at(172)).toBeGreaterThan(at(20) + 5);
      expect(at(228)).toBeGreaterThan(at(380) + 5);
      // The shadow (the bar's black) stays black: v = 0 maps to 0; the flat grey far away is lifted by the gamma.
      expect(at(200)).toBeLessThan(10);
      expect(at(20)).toBeGreaterThan(0xb4);
    }
  });

  it('a text-layer CNH-e writes Đ, Č, Ć, Š, Ž and the Vietnamese letters (Ư, Ơ, stacked tone marks) and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'ĐURĐEVIĆ KOVAČEVIĆ ŠARIĆ ŽIVKOVIĆ SNEŽANA', size: 30 }, { x: 100, y: 200, text: 'TRẦN PHƯỚC THẮNG ĐẶNG TRIỆU NGỌC HƯƠNG', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('ĐURĐEVIĆ KOVAČEVIĆ ŠARIĆ ŽIVKOVIĆ SNEŽANA');
      expect(text).toContain('TRẦN PHƯỚC THẮNG ĐẶNG TRIỆU NGỌC HƯƠNG');
    }
  });

  it('wets seen cards, puts moiré on camera frames and tone-maps the phone\'s own shots only', () => {
    let drops = 0, moires = 0, hdrs = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'screenshot']) {
        const d = final20Draws(c, '2022', rng(i));
        expect(d.drops || d.moire || d.hdr).toBe(false);
      }
      const scan = final20Draws('scanner', 'old', rng(i));
      expect(scan.moire || scan.hdr).toBe(false);
      if (scan.drops) drops++;
      const blur = final20Draws('blur', 'old', rng(1000 + i));
      expect(blur.hdr).toBe(false);
      if (blur.moire) moires++;
      if (final20Draws('glare', 'old', rng(2000 + i)).hdr) hdrs++;
    }
    expect(drops).toBeGreaterThan(100);
    expect(moires).toBeGreaterThan(100);
    expect(hdrs).toBeGreaterThan(120);
  });
});
