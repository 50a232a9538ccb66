/**
 * final12's own effects (test/fixtures/cnh/final12.ts), checked on a small synthetic card, never on the
 * part's documents (those are for the lead's single run at the thirteenth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { doubled, final12Draws, printedCopy } from '../fixtures/cnh/final12.js';
import { rng } from '../fixtures/cnh/people.js';

/** A 400 x 250 pale green card (RGBA) with a black bar at its top left, on a transparent 20 px margin. */
async function card(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="440" height="290"><rect x="20" y="20" width="400" height="250" fill="#c8e0b4"/><rect x="40" y="40" width="60" height="12" fill="#111"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function raw(png: Buffer): Promise<{ data: Buffer; w: number; ch: number }> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, ch: info.channels };
}

describe('final12 effects', () => {
  it('a printed copy screens the green ground into dots, prints the black bar solid and keeps the margin transparent', async () => {
    const { data, w } = await raw(await printedCopy(await card(), rng(5)));
    const at = (x: number, y: number, c: number): number => data[(y * w + x) * 4 + c];
    expect(at(5, 5, 3)).toBe(0);
    expect(at(70, 46, 0)).toBeLessThan(70);
    // The ground: its red channel (cyan ink) now varies from dot to paper across a few cells.
    const reds: number[] = [];
    for (let x = 200; x < 260; x++) reds.push(at(x, 150, 0));
    expect(Math.max(...reds) - Math.min(...reds)).toBeGreaterThan(60);
  });

  it('a double exposure leaves a faint ghost of the bar beside it', async () => {
    const flat = await sharp(await card()).flatten({ background: '#ffffff' }).png().toBuffer();
    const before = await raw(flat);
    const after = await raw(await doubled(flat, 'image/png', rng(11)));
    let changed = 0;
    for (let i = 0; i < after.data.length; i += after.ch) if (Math.abs(after.data[i] - before.data[i]) > 20) changed++;
    expect(changed).toBeGreaterThan(60);
    expect(changed).toBeLessThan(440 * 290 * 0.2);
  });

  it('draws printed copies and double exposures only where a card is photographed or scanned', () => {
    let copies = 0, ghosts = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['screenshot', 'pdf-text', 'pdf-image', 'clean']) {
        const d = final12Draws(c, '2022', rng(i));
        expect(d.printedCopy).toBe(false);
        expect(d.doubled).toBe(false);
      }
      const p = final12Draws('photo', 'old', rng(1000 + i));
      if (p.printedCopy) copies++;
      if (p.doubled) ghosts++;
      expect(final12Draws('scanner', '2022', rng(i)).doubled).toBe(false);
    }
    expect(copies).toBeGreaterThan(60);
    expect(ghosts).toBeGreaterThan(60);
  });
});
