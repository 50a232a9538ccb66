/**
 * A fake frame for the orientation search's tests (index.ts ORIENTATIONS; mirrored-frame.test.ts,
 * upright-sure-r25-s.test.ts): the preparer marks each orientation by the prepared page's width (STEP px
 * more per step: turned 180 degrees +1, mirrored +2), and the recogniser reads whatever `read` says for
 * that orientation.
 */
import sharp from 'sharp';
import type { Recognizer } from '../../src/ocr/pool.js';
import { CARD_HEIGHT_PX, type PrepareOptions, type PreparedImage } from '../../src/ocr/preprocess.js';
import type { OcrWord } from '../../src/ocr/words.js';

const W = Math.round(CARD_HEIGHT_PX * 1.54), STEP = 20;

/** An orientation's code: 0 upright, 1 turned 180 degrees, 2 mirrored, 3 mirrored and turned. */
export const orientationCode = (o: PrepareOptions): number => ((o.extraTurnDeg ?? 0) === 180 ? 1 : 0) + (o.mirrored ? 2 : 0);

/** A white page PNG of `w` x `h` px standing for a prepared card. */
const page = async (w: number, h: number): Promise<Buffer> => sharp({ create: { width: w, height: h, channels: 3, background: { r: 255, g: 255, b: 255 } } }).toColourspace('b-w').png().toBuffer();

/**
 * A frame read as `read(code)` in each orientation (orientationCode). `calls`: every PrepareOptions the
 * reader asked for, in order; `prepare` and `rec`: to pass to index.ts recognizeImage.
 */
export function orientedFrame(read: (code: number) => OcrWord[]): { calls: PrepareOptions[]; prepare: (b: Uint8Array, o?: PrepareOptions) => Promise<PreparedImage>; rec: Recognizer } {
  const calls: PrepareOptions[] = [];
  const prepare = async (_b: Uint8Array, o: PrepareOptions = {}): Promise<PreparedImage> => {
    calls.push(o);
    const w = W + STEP * orientationCode(o);
    return { png: await page(w, CARD_HEIGHT_PX), width: w, height: CARD_HEIGHT_PX, quality: { grade: 'regular', resolutionPx: 900, sharpness: 60, contrast: 170 }, rotationDeg: 0, light: { unevenness: 0, flattened: false } };
  };
  const rec = {
    model: { id: 'npm', langPath: '', gzip: true, pageSqueeze: 1 },
    async words(img: Buffer): Promise<OcrWord[]> {
      if (img.subarray(0, 2).toString() !== 'P5') return [];
      const width = Number(img.subarray(0, 40).toString('latin1').split(/\s+/)[1]);
      return read((width - W) / STEP);
    },
  } as unknown as Recognizer;
  return { calls, prepare, rec };
}
