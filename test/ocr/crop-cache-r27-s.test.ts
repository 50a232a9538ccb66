/**
 * preprocess.ts keeps a file's lit crop per preparation key (crop-cache.ts; round 27, S): a second
 * preparation of the same file (the second reading's median, local contrast, clip, thickening) starts
 * from the kept stage, and gives byte for byte what a preparation from nothing gives.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { litCrops, prepareImage, type PrepareOptions } from '../../src/ocr/preprocess.js';
import { frames } from '../../src/ocr/frame.js';
import { drawn } from './drawn-word.js';

/** A pale green card with dark type on a darker desk, lit unevenly across (`shade`): a JPEG frame. */
async function frame(shade: number): Promise<Buffer> {
  const { g } = await drawn('KOVACEVIC 172.431.645-10', 'DejaVu Sans', 30);
  const W = 1400, H = 900, data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const onCard = x > 100 && x < 1300 && y > 100 && y < 800;
    const gx = x - 200, gy = (y - 200) % 120;
    const ink = onCard && gx >= 0 && gx < g.width && gy >= 0 && gy < g.height && y < 700 ? g.data[gy * g.width + gx] : 255;
    const light = 1 - shade * (x / W);
    const base = onCard ? [200, 225, 195] : [60, 55, 50];
    for (let c = 0; c < 3; c++) data[3 * (y * W + x) + c] = Math.round(Math.min(base[c], ink) * light);
  }
  return sharp(data, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

const OPTIONS: PrepareOptions[] = [{}, { denoise: true }, { localContrast: true, clip: 0.1 }, { thickenThin: true }, { cardHeightPx: 1100 }, { degrate: true }, { extraTurnDeg: 180 }, { sharpenSigma: 1.2, denoise: true }];

describe('the lit crop kept per preparation key (crop-cache.ts, preprocess.ts prepareImage)', () => {
  it('prepares every option set byte for byte as from nothing, and makes each key\'s stage once', async () => {
    const bytes = await frame(0.45);
    const fresh = [];
    for (const o of OPTIONS) {
      litCrops.clear();
      frames.clear();
      fresh.push(await prepareImage(bytes, o));
    }
    litCrops.clear();
    frames.clear();
    const before = litCrops.made;
    // In a reader's order: the first preparation, then the others, then the first again.
    for (const [i, o] of [...OPTIONS.entries(), [0, OPTIONS[0]] as const]) {
      const p = await prepareImage(bytes, o);
      expect(Buffer.compare(p.png, fresh[i].png)).toBe(0);
      expect(p.quality).toEqual(fresh[i].quality);
      expect(p.light).toEqual(fresh[i].light);
      expect([p.width, p.height, p.splitX, p.thickened, p.grating, p.rotationDeg]).toEqual([fresh[i].width, fresh[i].height, fresh[i].splitX, fresh[i].thickened, fresh[i].grating, fresh[i].rotationDeg]);
    }
    // Keys: upright at 820 (five option sets share it), 1100 px, degrated, turned.
    expect(litCrops.made - before).toBe(4);
  }, 60_000);

  it('another file is prepared from its own pixels', async () => {
    const a = await frame(0.45), b = await frame(0);
    litCrops.clear();
    const pa = await prepareImage(a, { denoise: true });
    const pb = await prepareImage(b, { denoise: true });
    litCrops.clear();
    frames.clear();
    const pb0 = await prepareImage(b, { denoise: true });
    expect(Buffer.compare(pb.png, pb0.png)).toBe(0);
    expect(Buffer.compare(pa.png, pb.png)).not.toBe(0);
  }, 60_000);
});
