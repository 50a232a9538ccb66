/**
 * The lit crop of the last file prepared, kept per preparation key (preprocess.ts prepareImage): a
 * page read twice (second-read.ts: the second reading's preparation differs only after the light is
 * evened: a median, local contrast, another stretch or sharpening) is not scaled, measured and evened
 * again. One per decode worker thread (`litCrops`), like frame.ts's FrameCache, whose card the crop is
 * scaled from.
 *
 * Why it cannot change a value: the kept stage is a pure function of the file's bytes and the key's
 * options (the frame cache's card, sharp's resize, grating.ts, quality.ts measureQuality, light.ts
 * flattenLight), and every preparation gets its own copy of the pixels.
 */
import { FRAME_KEEP_MS } from './frame.js';

/** Stages kept for one file at most (a page's upright and degrated keys, the second reading's larger small-card scale). */
const MAX_KEYS = 4;

/** A kept stage whose pixels (`data`) are copied out on every use. */
export interface Kept { data: Buffer }

export class CropCache<T extends Kept> {
  private bytes?: Buffer;
  private readonly stages = new Map<string, Promise<T>>();
  private timer?: ReturnType<typeof setTimeout>;
  /** Stages made (misses), for tests. */
  made = 0;

  /** The stage of `bytes` under `key`, made by `make` on a miss; its `data` a fresh copy each time. */
  async get(bytes: Uint8Array, key: string, make: () => Promise<T>): Promise<T> {
    const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (!this.bytes || !this.bytes.equals(b)) {
      this.clear();
      this.bytes = Buffer.from(b);
    }
    this.keep();
    let stage = this.stages.get(key);
    if (!stage) {
      if (this.stages.size >= MAX_KEYS) this.stages.clear();
      this.made++;
      const made = make();
      stage = made;
      this.stages.set(key, made);
      made.catch(() => { if (this.stages.get(key) === made) this.stages.delete(key); });
    }
    const s = await stage;
    return { ...s, data: Buffer.from(s.data) };
  }

  /** Drops what is kept. */
  clear(): void {
    this.stages.clear();
    this.bytes = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private keep(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), FRAME_KEEP_MS);
    this.timer.unref?.();
  }
}
