/**
 * final11's own effects (test/fixtures/cnh/final11.ts), checked on a small synthetic card, never on the
 * part's documents (those are for the lead's single run at the twelfth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { final11Draws, hologrammed, upsideDown } from '../fixtures/cnh/final11.js';
import { rng } from '../fixtures/cnh/people.js';

/** A 400 x 250 pale green card (RGBA) with a black bar at its top left, on a transparent 20 px margin. */
async function card(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="440" height="290"><rect x="20" y="20" width="400" height="250" fill="#e8f0dc"/><rect x="40" y="40" width="60" height="12" fill="#111"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function raw(png: Buffer): Promise<{ data: Buffer; w: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width };
}

describe('final11 effects', () => {
  it('the hologram tints some of the card with colour and leaves the transparent margin transparent', async () => {
    const before = await raw(await card());
    const after = await raw(await hologrammed(await card(), rng(3)));
    let tinted = 0, margin = 0;
    for (let i = 0; i < after.data.length; i += 4) {
      const [r, g, b, a] = [after.data[i], after.data[i + 1], after.data[i + 2], after.data[i + 3]];
      if (before.data[i + 3] === 0) { if (a !== 0) margin++; continue; }
      if (Math.abs(r - before.data[i]) + Math.abs(g - before.data[i + 1]) + Math.abs(b - before.data[i + 2]) > 12) tinted++;
    }
    expect(margin).toBe(0);
    expect(tinted).toBeGreaterThan(400 * 250 * 0.05);
    expect(tinted).toBeLessThan(400 * 250 * 0.9);
  });

  it('upside down puts the top-left bar at the bottom right', async () => {
    const { data, w } = await raw(await upsideDown(await card()));
    const at = (x: number, y: number): number => data[(y * w + x) * 4];
    expect(at(440 - 1 - 70, 290 - 1 - 46)).toBeLessThan(60);
    expect(at(70, 46)).toBeGreaterThan(200);
  });

  it('draws upside-down cards only where a card is photographed or scanned, and a hologram only on lit photos', () => {
    let turned = 0, holo = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['screenshot', 'pdf-text', 'pdf-image', 'clean']) {
        const d = final11Draws(c, '2022', rng(i));
        expect(d.upsideDown).toBe(false);
        expect(d.hologram).toBe(false);
      }
      const p = final11Draws('photo', 'old', rng(1000 + i));
      if (p.upsideDown) turned++;
      if (p.hologram) holo++;
      expect(final11Draws('scanner', '2022', rng(i)).hologram).toBe(false);
    }
    expect(turned).toBeGreaterThan(50);
    expect(holo).toBeGreaterThan(80);
  });
});
