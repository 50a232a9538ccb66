/**
 * Small cards and their raw pixels for the widened set's effect tests (fixture-final16 ... fixture-final22.test.ts).
 */
import sharp from 'sharp';

/** A 640 x 400 card of `ground` (RGBA PNG, transparent rounded corners) with twelve black bars (type) across it. */
export async function barCard(ground: string): Promise<Buffer> {
  const bars = Array.from({ length: 12 }, (_, k) => `<rect x="40" y="${24 + 30 * k}" width="560" height="16" fill="#111"/>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" rx="30" fill="${ground}"/>${bars}</svg>`;
  return sharp(Buffer.from(svg)).ensureAlpha().png().toBuffer();
}

/** A 640 x 400 card of `ground` (RGBA PNG) with black horizontal lines 2 px thick every 8 px (print an effect can move or cover). */
export async function ruledCard(ground: string): Promise<Buffer> {
  const lines = Array.from({ length: 50 }, (_, k) => `<rect x="0" y="${8 * k}" width="640" height="2" fill="#000"/>`).join('');
  return sharp(Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="640" height="400"><rect width="640" height="400" fill="${ground}"/>${lines}</svg>`))
    .ensureAlpha().png().toBuffer();
}

/** A PNG's pixels as they are stored (channels kept), with its width, height and channel count. */
export async function rawPixels(png: Buffer): Promise<{ data: Buffer; w: number; h: number; ch: number }> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, w: info.width, h: info.height, ch: info.channels };
}
