/**
 * final15's own effects (test/fixtures/cnh/final15.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the sixteenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final15Draws, fringed, wobbled, worn } from '../fixtures/cnh/final15.js';
import { rng } from '../fixtures/cnh/people.js';

/** A 400 x 250 light frame (RGB PNG) with black bars (type) across it and one black column. */
async function frame(): Promise<Buffer> {
  const bars = Array.from({ length: 10 }, (_, k) => `<rect x="40" y="${20 + 22 * k}" width="320" height="14" fill="#111"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="250"><rect width="400" height="250" fill="#dcdcdc"/>${bars}<rect x="380" y="0" width="6" height="250" fill="#111"/></svg>`;
  return sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
}

async function raw(png: Buffer): Promise<{ data: Buffer; w: number; h: number; ch: number }> {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height, ch: info.channels };
}

describe('final15 effects', () => {
  it('worn print lightens type inside one band and leaves the ground and the rest of the type alone', async () => {
    const before = await raw(await frame());
    const after = await raw(await worn(await frame(), rng(3)));
    let lightened = 0, untouchedType = 0, groundChanged = 0;
    for (let i = 0; i < after.data.length; i += after.ch) {
      if (before.data[i] < 60) {
        if (after.data[i] > before.data[i] + 20) lightened++;
        else if (after.data[i] === before.data[i]) untouchedType++;
      } else if (after.data[i] !== before.data[i]) groundChanged++;
    }
    expect(lightened).toBeGreaterThan(500);
    expect(untouchedType).toBeGreaterThan(lightened / 4);
    expect(groundChanged).toBe(0);
    // Never lighter than the ground: the ink thins toward the card, it does not turn white.
    expect(after.data.reduce((m, v) => Math.max(m, v), 0)).toBeLessThanOrEqual(0xdc);
  });

  it('colour fringes move red and blue apart at the frame\'s edge and leave green and the centre alone', async () => {
    const before = await raw(await frame());
    const after = await raw(await fringed(await frame(), 'image/png', rng(4)));
    // The column at x = 380..385 near the right edge: red and blue differ from green at its borders.
    let fringe = 0;
    for (let x = 374; x < 392; x++) {
      const i = (125 * after.w + x) * 3;
      if (Math.abs(after.data[i] - after.data[i + 2]) > 30) fringe++;
      expect(after.data[i + 1]).toBe(before.data[i + 1]);
    }
    expect(fringe).toBeGreaterThan(0);
    const c = (125 * after.w + 200) * 3;
    expect(Math.abs(after.data[c] - before.data[c])).toBeLessThanOrEqual(1);
  });

  it('wobble shifts rows sideways by different amounts, so a vertical column wavers', async () => {
    const after = await raw(await wobbled(await frame(), 'image/png', rng(9)));
    const left = (y: number): number => {
      for (let x = 370; x < 400; x++) if (after.data[(y * after.w + x) * 3] < 110) return x;
      return -1;
    };
    const edges = Array.from({ length: after.h }, (_, y) => left(y)).filter((x) => x >= 0);
    expect(edges.length).toBeGreaterThan(200);
    expect(Math.max(...edges) - Math.min(...edges)).toBeGreaterThanOrEqual(2);
  });

  it('draws wear on cards that meet a camera or a scanner, fringes and wobble on phone photos only', () => {
    let wornN = 0, fringes = 0, wobble = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['screenshot', 'pdf-text', 'pdf-image', 'clean']) {
        const d = final15Draws(c, '2022', rng(i));
        expect(d.worn || d.fringed || d.wobble).toBe(false);
      }
      const s = final15Draws('scanner', 'old', rng(i));
      expect(s.fringed || s.wobble).toBe(false);
      if (s.worn) wornN++;
      const p = final15Draws('photo', 'old', rng(1000 + i));
      if (p.fringed) fringes++;
      if (p.wobble) wobble++;
    }
    expect(wornN).toBeGreaterThan(80);
    expect(fringes).toBeGreaterThan(100);
    expect(wobble).toBeGreaterThan(80);
  });
});
