/**
 * final13's own effects (test/fixtures/cnh/final13.ts), checked on a small synthetic card, never on the
 * part's documents (those are for the lead's single run at the fourteenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { bubbled, deadElement, final13Draws, shallowFocus } from '../fixtures/cnh/final13.js';
import { rng } from '../fixtures/cnh/people.js';

/** A 400 x 250 pale green card (RGBA) with black bars (type) down its left, on a transparent 20 px margin. */
async function card(): Promise<Buffer> {
  const bars = Array.from({ length: 10 }, (_, k) => `<rect x="40" y="${30 + 22 * k}" width="300" height="14" fill="#111"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="440" height="290"><rect x="20" y="20" width="400" height="250" fill="#c8e0b4"/>${bars}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function raw(png: Buffer): Promise<{ data: Buffer; w: number; h: number; ch: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height, ch: info.channels };
}

describe('final13 effects', () => {
  it('a dead printer element leaves whole-length white rows across type and ground, and the margin transparent', async () => {
    const { data, w, h } = await raw(await deadElement(await card(), 2, rng(3)));
    const at = (x: number, y: number, c: number): number => data[(y * w + x) * 4 + c];
    expect(at(5, 5, 3)).toBe(0);
    // Rows of the card whose every card pixel is near white (the ground is pale green: red 200).
    const white: number[] = [];
    for (let y = 20; y < h - 20; y++) {
      let all = true;
      for (let x = 20; x < w - 20 && all; x++) if (at(x, y, 0) < 230 || at(x, y, 1) < 230 || at(x, y, 2) < 230) all = false;
      if (all) white.push(y);
    }
    expect(white.length).toBeGreaterThanOrEqual(2);
    expect(white.length).toBeLessThanOrEqual(4);
  });

  it('a bubble magnifies the type under it and shades its rim; the rest of the card is untouched', async () => {
    const before = await raw(await card());
    const after = await raw(await bubbled(await card(), 3, rng(9)));
    let changed = 0;
    for (let i = 0; i < after.data.length; i += 4) if (Math.abs(after.data[i] - before.data[i]) > 20) changed++;
    expect(changed).toBeGreaterThan(100);
    // Three discs of radius 60 at most.
    expect(changed).toBeLessThan(3 * Math.PI * 60 * 60);
    expect(after.data[(5 * after.w + 5) * 4 + 3]).toBe(0);
  });

  it('a shallow depth of field keeps one end sharp and blurs the other', async () => {
    const flat = await sharp(await card()).flatten({ background: '#ffffff' }).png().toBuffer();
    const before = await raw(flat);
    const after = await raw(await shallowFocus(flat, 'image/png', rng(4)));
    // Change per quarter of the frame, along the draw's four directions: one end nearly unchanged, the opposite end blurred.
    const diff = (x0: number, x1: number, y0: number, y1: number): number => {
      let s = 0;
      for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) { const i = (y * before.w + x) * before.ch; s += Math.abs(after.data[i] - before.data[i]); }
      return s / ((x1 - x0) * (y1 - y0));
    };
    const w = before.w, h = before.h, qw = Math.floor(w / 4), qh = Math.floor(h / 4);
    const ends = [[diff(0, qw, 0, h), diff(w - qw, w, 0, h)], [diff(0, w, 0, qh), diff(0, w, h - qh, h)]];
    const spread = Math.max(...ends.map(([a, b]) => Math.abs(a - b)));
    expect(spread).toBeGreaterThan(2);
    expect(Math.min(...ends.flat())).toBeLessThan(0.5);
  });

  it('draws dead elements only on printed cards, bubbles on photographed or scanned ones, a shallow focus on hand-held close-ups', () => {
    let dead = 0, bubbles = 0, shallow = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['screenshot', 'pdf-text', 'pdf-image']) {
        const d = final13Draws(c, '2022', rng(i));
        expect(d.deadLines + d.bubbles).toBe(0);
        expect(d.shallow).toBe(false);
      }
      expect(final13Draws('clean', 'old', rng(i)).bubbles).toBe(0);
      expect(final13Draws('scanner', '2022', rng(i)).shallow).toBe(false);
      const p = final13Draws('photo', 'old', rng(1000 + i));
      if (p.deadLines > 0) dead++;
      if (p.bubbles > 0) bubbles++;
      if (p.shallow) shallow++;
      expect(p.deadLines).toBeLessThanOrEqual(3);
    }
    expect(dead).toBeGreaterThan(60);
    expect(bubbles).toBeGreaterThan(60);
    expect(shallow).toBeGreaterThan(80);
  });
});
