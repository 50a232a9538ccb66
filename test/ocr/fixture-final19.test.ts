/**
 * final19's own effects (test/fixtures/cnh/final19.ts), checked on small synthetic frames, never on the
 * part's documents (those are for the lead's single run at the twentieth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { blocky, final19Draws, mirrored, vignetted } from '../fixtures/cnh/final19.js';
import { rng } from '../fixtures/cnh/people.js';
import { pdfOf } from '../fixtures/cnh/widened-print.js';
import { readPdf } from '../../src/ocr/input.js';

/** A flat grey 400 x 300 frame (PNG, RGB). */
const flat = (): Promise<Buffer> => sharp({ create: { width: 400, height: 300, channels: 3, background: '#c8c8c8' } }).png().toBuffer();

/** A white 320 x 200 frame with a black bar at x 20-60 and a thin black line every 7 px below y 120 (PNG, RGB). */
async function marked(): Promise<Buffer> {
  const lines = Array.from({ length: 10 }, (_, k) => `<rect x="0" y="${120 + 7 * k}" width="320" height="1" fill="#000"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200"><rect width="320" height="200" fill="#fff"/><rect x="20" y="10" width="40" height="80" fill="#000"/>${lines}</svg>`))
    .removeAlpha().png().toBuffer();
}

const grey = async (bytes: Buffer): Promise<{ data: Buffer; w: number; h: number }> => {
  const { data, info } = await sharp(bytes).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height };
};

describe('final19 effects', () => {
  it('vignetting darkens the corners (to 40-75 % of their light, within JPEG\'s rounding) and keeps the middle, the kind and the size', async () => {
    for (const seed of [1, 2, 3, 4]) {
      const out = await vignetted({ bytes: await flat(), mime: 'image/png' }, rng(seed));
      expect(out.mime).toBe('image/png');
      const { data, w, h } = await grey(out.bytes);
      expect([w, h]).toEqual([400, 300]);
      const middle = data[150 * w + 200];
      expect(middle).toBeGreaterThan(0.9 * 200);
      const corners = [data[0], data[w - 1], data[(h - 1) * w], data[h * w - 1]];
      expect(Math.min(...corners)).toBeGreaterThanOrEqual(Math.floor(0.38 * 200));
      expect(Math.min(...corners)).toBeLessThan(0.8 * middle);
    }
    const jpeg = await sharp(await flat()).jpeg({ quality: 95 }).toBuffer();
    expect((await vignetted({ bytes: jpeg, mime: 'image/jpeg' }, rng(9))).mime).toBe('image/jpeg');
  });

  it('mirroring moves the bar from the left edge to the right, row for row', async () => {
    const out = await mirrored({ bytes: await marked(), mime: 'image/png' }, rng(1));
    const { data, w } = await grey(out.bytes);
    expect(w).toBe(320);
    expect(data[50 * w + 40]).toBe(255);
    // The bar at x 20-59 lands at x 260-299.
    expect(data[50 * w + 261]).toBe(0);
    expect(data[50 * w + 298]).toBe(0);
    expect(data[50 * w + 302]).toBe(255);
    expect(data[50 * w + 30]).toBe(255);
  });

  it('a small frame blown up keeps the size and turns single-pixel lines into blocks or loses them', async () => {
    for (const seed of [1, 2, 3]) {
      const png = await marked();
      const out = await blocky({ bytes: png, mime: 'image/png' }, rng(seed));
      const { data, w, h } = await grey(out.bytes);
      expect([w, h]).toEqual([320, 200]);
      // The 1 px lines (below y 120) come back smeared into runs of equal rows: count rows equal to the one above.
      let same = 0;
      for (let y = 121; y < 190; y++) if (data.subarray(y * w, (y + 1) * w).equals(data.subarray((y - 1) * w, y * w))) same++;
      expect(same).toBeGreaterThan(15);
      // The original has no two equal neighbouring rows in that band (lines every 7 px, white between: many are equal there too, so compare sharpness instead).
      let crisp = 0;
      for (let y = 120; y < 190; y++) if (data[y * w + 160] < 40 || data[y * w + 160] > 215) crisp++;
      expect(crisp).toBeLessThan(70);
    }
  });

  it('a text-layer CNH-e writes Ø, Æ, Å, Þ, Ð and the Polish letters (Ł, Ś, Ź, Ż, Ń, Ć) and reads them back', async () => {
    const panel = { w: 1280, h: 800, tint: '#eef2dc', rects: [], texts: [{ x: 100, y: 100, text: 'NOME E SOBRENOME', size: 20 },
      { x: 100, y: 150, text: 'SØRENSEN SÆTHER BRÅTEN ÞORSTEINSSON GUÐRÚN', size: 30 }, { x: 100, y: 200, text: 'KOZŁOWSKI ŚLIWIŃSKI ŻUREK ĆWIKŁA GAŁĄZKA', size: 30 }] };
    for (const font of [0, 1, 2]) {
      const pages = await readPdf(await pdfOf([panel as never], true, font, 'DejaVu Sans', 1));
      expect(pages[0].kind).toBe('text');
      const text = pages[0].kind === 'text' ? pages[0].words.map((w) => w.text).join(' ') : '';
      expect(text).toContain('SØRENSEN SÆTHER BRÅTEN ÞORSTEINSSON GUÐRÚN');
      expect(text).toContain('KOZŁOWSKI ŚLIWIŃSKI ŻUREK ĆWIKŁA GAŁĄZKA');
    }
  });

  it('vignettes camera frames, mirrors selfie-like frames and blows up photos, low JPEGs and screenshots only', () => {
    let vig = 0, mir = 0, blk = 0;
    for (let i = 0; i < 400; i++) {
      for (const c of ['pdf-text', 'pdf-image', 'scanner', 'clean']) {
        const d = final19Draws(c, '2022', rng(i));
        expect(d.vignetted || d.mirrored || d.blocky).toBe(false);
      }
      const shot = final19Draws('screenshot', 'old', rng(i));
      expect(shot.vignetted || shot.mirrored).toBe(false);
      if (shot.blocky) blk++;
      const p = final19Draws('perspective', 'old', rng(1000 + i));
      expect(p.mirrored || p.blocky).toBe(false);
      if (p.vignetted) vig++;
      if (final19Draws('low-light', 'old', rng(2000 + i)).mirrored) mir++;
    }
    expect(vig).toBeGreaterThan(100);
    expect(mir).toBeGreaterThan(50);
    expect(blk).toBeGreaterThan(80);
  });
});
