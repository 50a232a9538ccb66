/** A card's typed lines on light paper, turned: the fake frame shared by axis-type.test.ts and card-type-r27-r.test.ts. */
import sharp from 'sharp';
import type { Gray } from '../../src/ocr/frame.js';
import { drawn } from './drawn-word.js';

/** Four value lines of a card stacked on light paper (1 band), turned `deg` clockwise on the same paper. */
export async function turnedCard(deg: number): Promise<Gray> {
  const lines = await Promise.all(['MURAT ERKAN YILMAZ', '958.709.005-57', '21/02/2030 14/08/1981', 'TUĞBA CÂMPEANU BĂLAN'].map((t) => drawn(t, 'DejaVu Sans', 20)));
  const width = Math.max(...lines.map((l) => l.g.width)) + 80, height = lines.reduce((s, l) => s + l.g.height, 0) + 80;
  const data = new Uint8Array(width * height).fill(235);
  let y0 = 40;
  for (const { g } of lines) {
    for (let y = 0; y < g.height; y++) for (let x = 0; x < g.width; x++) data[(y0 + y) * width + 40 + x] = Math.min(235, g.data[y * g.width + x]);
    y0 += g.height;
  }
  const { data: out, info } = await sharp(Buffer.from(data), { raw: { width, height, channels: 1 } })
    .rotate(deg, { background: { r: 235, g: 235, b: 235 } }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(out.buffer, out.byteOffset, out.length), w: info.width, h: info.height };
}
