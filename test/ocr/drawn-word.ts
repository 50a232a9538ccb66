/**
 * A word drawn for the glyph tests (glyph-accent, glyph-tilde-n, tilde-n-misread): `text` black on white
 * in `font` at `size` px (a value line of a card; `bold`: its bold face), as a gray page and the word's box, its ink's extent
 * (as the recogniser reports it, marks included).
 */
import sharp from 'sharp';
import type { Gray } from '../../src/ocr/glyph-i.js';
import type { OcrWord } from '../../src/ocr/words.js';

export async function drawn(text: string, font: string, size: number, bold = false): Promise<{ g: Gray; box: Omit<OcrWord, 'text' | 'conf'> }> {
  const w = Math.ceil(size * text.length * 0.9) + 40, h = Math.ceil(size * 2.2);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="${Math.round(size * 1.6)}" font-family="${font}" font-size="${size}"${bold ? ' font-weight="bold"' : ''} fill="#111">${text}</text></svg>`;
  const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
  const g: Gray = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  let x0 = g.width, y0 = g.height, x1 = 0, y1 = 0;
  for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) if (g.data[y * g.width + x] < 128) {
    x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
  }
  return { g, box: { x0, y0, x1, y1 } };
}

/** `g` blurred by `sigma` px (none at 0) and saved as a JPEG of `quality`, decoded back to grey. */
export async function worn(g: Gray, sigma: number, quality: number): Promise<Gray> {
  let s = sharp(Buffer.from(g.data), { raw: { width: g.width, height: g.height, channels: 1 } });
  if (sigma > 0) s = s.blur(sigma);
  const { data, info } = await sharp(await s.jpeg({ quality }).toBuffer()).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The cards' faces the glyph tests draw in, [family, bold] (glyph-own, glyph-south-slavic-vietnamese). */
export const CARD_FACES: ReadonlyArray<readonly [string, boolean]> = [
  ['DejaVu Sans', false], ['DejaVu Serif', true], ['DejaVu Sans Mono', false], ['Liberation Sans', false],
  ['Liberation Serif', false], ['Liberation Mono', false], ['DejaVu Sans Condensed', true],
];
/** Wears, [blur sigma px, JPEG quality]: clean, and blurred then saved at a low quality. */
export const WEARS = [[0, 90], [0.8, 40]] as const;

/**
 * What `mend` (a glyph reader: page, words -> words) makes of `truth` drawn at `size` px in each of
 * CARD_FACES and WEARS, read as `read` at 0.9: one { text, conf, at } per face and wear.
 */
export async function mendedReadings(mend: (g: Gray, words: OcrWord[]) => OcrWord[], truth: string, read: string, size = 28): Promise<Array<{ text: string; conf: number; at: string }>> {
  const out: Array<{ text: string; conf: number; at: string }> = [];
  for (const [font, bold] of CARD_FACES) for (const [sigma, quality] of WEARS) {
    const d = await drawn(truth, font, size, bold);
    const [w] = mend(await worn(d.g, sigma, quality), [{ text: read, conf: 0.9, ...d.box }]);
    out.push({ text: w.text, conf: w.conf, at: `${font}${bold ? ' bold' : ''} blur ${sigma}` });
  }
  return out;
}
