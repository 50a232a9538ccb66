import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';

/** One stretch of the fake camera video. */
export interface Segment {
  photo: string;
  /** Frames at 10 fps. */
  frames: number;
  /** face: the photo; empty: a plain grey wall (no face); dark: the photo at 15% brightness. */
  kind?: 'face' | 'empty' | 'dark';
  /** Size of the photo as a fraction of the frame height (default 1: 480 px); above 1 it is cropped to the frame (a face too close). */
  scale?: number;
  /** Gaussian blur (sigma, frame pixels) of the placed photo: an out-of-focus or moving face. */
  blur?: number;
  /** Mirror the photo left-right (a head turned one way becomes turned the other). */
  mirror?: boolean;
  /** Horizontal shift of the photo from the centre, frame pixels (a face off the oval); it must stay inside the frame. */
  shiftX?: number;
}

/**
 * Writes a YUV4MPEG2 (4:2:0) video for Chromium's fake camera (`--use-file-for-fake-video-capture`):
 * each photo is upscaled to 480 px high (times its `scale`) and centred on a 640x480 frame over a
 * blurred copy of itself, repeated for its segment's frames at 10 fps. Chromium loops the file.
 * Format: the `YUV4MPEG2 W H F A C420jpeg` header line, then per frame `FRAME\n` + Y, U, V planes.
 */
export async function writeY4m(file: string, segments: Segment[]): Promise<void> {
  const W = 640;
  const H = 480;
  const chunks: Buffer[] = [Buffer.from(`YUV4MPEG2 W${W} H${H} F10:1 Ip A1:1 C420jpeg\n`, 'ascii')];
  for (const { photo, frames, kind = 'face', scale = 1, blur, mirror, shiftX = 0 } of segments) {
    const background = kind === 'empty'
      ? await sharp({ create: { width: W, height: H, channels: 3, background: { r: 150, g: 146, b: 140 } } }).png().toBuffer()
      : await sharp(photo).resize(W, H, { fit: 'cover' }).blur(20).toBuffer();
    let image = sharp(background);
    if (kind !== 'empty') {
      const layer = await placed(photo, scale, W, H, blur, mirror);
      image = image.composite([{ ...layer, left: layer.left + shiftX }]);
    }
    let rgb = await image.removeAlpha().raw().toBuffer();
    if (kind === 'dark') rgb = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } }).linear(0.15, 0).raw().toBuffer();
    const frame = rgbToI420(rgb, W, H);
    for (let i = 0; i < frames; i++) chunks.push(Buffer.from('FRAME\n', 'ascii'), frame);
  }
  await writeFile(file, Buffer.concat(chunks));
}

/** The photo resized to `scale` x the frame height, centred; cropped to the frame when larger; blurred / mirrored when asked. */
async function placed(photo: string, scale: number, W: number, H: number, blur?: number, mirror?: boolean): Promise<{ input: Buffer; left: number; top: number }> {
  const side = Math.round(H * scale);
  let pipeline = sharp(photo).resize(side, side);
  if (mirror) pipeline = pipeline.flop();
  if (blur) pipeline = pipeline.blur(blur);
  const img = await pipeline.toBuffer();
  if (side <= H) return { input: img, left: Math.round((W - side) / 2), top: Math.round((H - side) / 2) };
  const w = Math.min(side, W);
  const cropped = await sharp(img).extract({ left: Math.round((side - w) / 2), top: Math.round((side - H) / 2), width: w, height: H }).toBuffer();
  return { input: cropped, left: Math.round((W - w) / 2), top: 0 };
}

/** RGB (3 bytes per pixel) -> planar I420 with BT.601 full-range (JPEG) coefficients. */
export function rgbToI420(rgb: Buffer, w: number, h: number): Buffer {
  const ySize = w * h;
  const cw = w / 2;
  const ch = h / 2;
  const out = Buffer.alloc(ySize + 2 * cw * ch);
  for (let i = 0; i < ySize; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    out[i] = clamp(0.299 * r + 0.587 * g + 0.114 * b);
  }
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]] as const) {
        const p = ((y * 2 + dy) * w + x * 2 + dx) * 3;
        r += rgb[p]!;
        g += rgb[p + 1]!;
        b += rgb[p + 2]!;
      }
      r /= 4;
      g /= 4;
      b /= 4;
      out[ySize + y * cw + x] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      out[ySize + cw * ch + y * cw + x] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  return out;
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
}
