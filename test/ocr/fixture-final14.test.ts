/**
 * final14's own effects (test/fixtures/cnh/final14.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the fifteenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { dustStreaks, final14Draws, flickered, formBackdrop } from '../fixtures/cnh/final14.js';
import { rng } from '../fixtures/cnh/people.js';

/** A 400 x 250 flat grey frame (RGB PNG) with black bars (type) down its left. */
async function frame(): Promise<Buffer> {
  const bars = Array.from({ length: 10 }, (_, k) => `<rect x="40" y="${20 + 22 * k}" width="300" height="14" fill="#111"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="250"><rect width="400" height="250" fill="#b4b4b4"/>${bars}</svg>`;
  return sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
}

async function raw(png: Buffer): Promise<{ data: Buffer; w: number; h: number; ch: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height, ch: info.channels };
}

describe('final14 effects', () => {
  it('a printed form as a surface: opaque paper of the asked size with dark type on it', async () => {
    const png = await formBackdrop(rng(5))(600, 400);
    const { data, w, h, ch } = await raw(png);
    expect([w, h, ch]).toEqual([600, 400, 3]);
    let dark = 0, light = 0;
    for (let i = 0; i < data.length; i += 3) {
      if (data[i] < 90) dark++;
      if (data[i] > 200) light++;
    }
    // Mostly paper, with type on it (a form's labels cover a few per cent of it).
    expect(light / (w * h)).toBeGreaterThan(0.6);
    expect(dark / (w * h)).toBeGreaterThan(0.003);
  });

  it('flicker bands change the brightness row by row, not column by column', async () => {
    const before = await raw(await frame());
    const after = await raw(await flickered(await frame(), 'image/png', rng(2)));
    // The grey ground (x = 360, right of the bars) along the rows: it swings by several levels.
    const ground = (y: number): number => after.data[(y * after.w + 360) * after.ch + 1];
    const col = Array.from({ length: after.h }, (_, y) => ground(y));
    expect(Math.max(...col) - Math.min(...col)).toBeGreaterThan(15);
    // Along one row the ground keeps one value (the band is the sensor's row).
    const row = Array.from({ length: 40 }, (_, x) => after.data[(5 * after.w + 350 + x) * after.ch + 1]);
    expect(Math.max(...row) - Math.min(...row)).toBeLessThanOrEqual(1);
    expect(before.data[(5 * before.w + 360) * before.ch + 1]).toBe(180);
  });

  it('dust streaks darken whole-length lines across type and ground, and nothing else', async () => {
    const before = await raw(await frame());
    const after = await raw(await dustStreaks(await frame(), 'image/png', 2, rng(7)));
    const changed = new Set<number>();
    let vertical = 0, horizontal = 0;
    for (let y = 0; y < after.h; y++) {
      for (let x = 0; x < after.w; x++) {
        const i = (y * after.w + x) * after.ch;
        if (after.data[i] < before.data[i]) {
          changed.add(i);
          if (y === 0) vertical++;
          if (x === 0) horizontal++;
        }
      }
    }
    // Two streaks of 1-3 px, each the frame's whole length in one direction.
    const lines = vertical > 0 ? vertical : horizontal;
    expect(lines).toBeGreaterThanOrEqual(2);
    expect(lines).toBeLessThanOrEqual(6);
    const length = vertical > 0 ? after.h : after.w;
    expect(changed.size).toBeLessThanOrEqual(lines * length);
    expect(changed.size).toBeGreaterThanOrEqual(0.9 * lines * length);
  });

  it('draws a printed form under desk photos only, flicker on indoor phone photos only, dust streaks on scans only', () => {
    let form = 0, flicker = 0, streaks = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['screenshot', 'pdf-text', 'pdf-image', 'clean']) {
        const d = final14Draws(c, '2022', rng(i));
        expect(d.form || d.flicker || d.streaks > 0).toBe(false);
      }
      const s = final14Draws('scanner', 'old', rng(i));
      expect(s.form || s.flicker).toBe(false);
      if (s.streaks > 0) streaks++;
      expect(s.streaks).toBeLessThanOrEqual(3);
      expect(final14Draws('blur', 'old', rng(i)).flicker).toBe(false);
      const p = final14Draws('photo', 'old', rng(1000 + i));
      expect(p.streaks).toBe(0);
      if (p.form) form++;
      if (p.flicker) flicker++;
    }
    expect(form).toBeGreaterThan(110);
    expect(flicker).toBeGreaterThan(80);
    expect(streaks).toBeGreaterThan(170);
  });
});
