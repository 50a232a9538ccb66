/**
 * final33's own effect (test/fixtures/cnh/final33.ts), checked on small synthetic card strips, never on the
 * part's documents (those are for its single run at the thirty-fourth round's end).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CLIPPED, CLIP_FINISHES, CLIP_SPOTS, final33Draws, paperClipped } from '../fixtures/cnh/final33.js';
import { rng } from '../fixtures/cnh/people.js';

// Half the generator's scale: a panel 640 x 410 px, two panels 1300 px wide (640 + 20 + 640).
const PW = 640, H = 410, GAP = 20;

/**
 * A card strip of `panels` panels (RGBA PNG): each panel a light card with a dark stroke every 8 px across its
 * middle rows, a 6 px transparent margin round it (the card's rounded corners' outside), the gap transparent.
 */
async function strip(panels: 1 | 2): Promise<{ png: Buffer; w: number }> {
  const w = panels * PW + (panels - 1) * GAP;
  const data = Buffer.alloc(w * H * 4);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < w; x++) {
      const px = x >= PW + GAP ? x - PW - GAP : x;
      if (px >= PW || px < 6 || px >= PW - 6 || y < 6 || y >= H - 6) continue;
      const v = px % 8 < 2 && y > 0.3 * H && y < 0.7 * H ? 20 : 232;
      data.set([v, v, v - 10, 255], (y * w + x) * 4);
    }
  }
  return { png: await sharp(data, { raw: { width: w, height: H, channels: 4 } }).png().toBuffer(), w };
}

/** Per pixel of a `w` x `H` strip: whether `after` differs from `before` (any channel, alpha too) by more than `by`. */
async function changed(before: Buffer, after: Buffer, w: number, by = 4): Promise<boolean[]> {
  const a = await sharp(before).ensureAlpha().raw().toBuffer();
  const b = await sharp(after).ensureAlpha().raw().toBuffer();
  return Array.from({ length: w * H }, (_, k) => [0, 1, 2, 3].some((c) => Math.abs(a[k * 4 + c] - b[k * 4 + c]) > by));
}

describe('final33 effects', () => {
  it('a paper clip keeps the strip\'s exact size and its alpha, and draws nothing outside the card', async () => {
    for (const panels of [1, 2] as const) {
      const { png, w } = await strip(panels);
      const alpha = await sharp(png).extractChannel(3).raw().toBuffer();
      for (let seed = 1; seed <= 8; seed++) {
        const out = await paperClipped(png, seed % 2 ? '2022' : 'old', rng(seed));
        const meta = await sharp(out).metadata();
        expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', w, H, 4]);
        expect((await sharp(out).extractChannel(3).raw().toBuffer()).equals(alpha)).toBe(true);
      }
    }
  });

  it('is the same for the same draws', async () => {
    const { png } = await strip(2);
    expect((await paperClipped(png, '2022', rng(5))).equals(await paperClipped(png, '2022', rng(5)))).toBe(true);
  });

  it('lies on a side edge of one panel, a thin wire: 0.3-6 % of the panel\'s pixels, none in its middle (0.3-0.68 of its width), where the values lie', async () => {
    const panelsHit = new Set<number>();
    for (const panels of [1, 2] as const) {
      const { png, w } = await strip(panels);
      for (let seed = 1; seed <= 16; seed++) {
        const m = await changed(png, await paperClipped(png, seed % 2 ? '2022' : 'old', rng(seed)), w);
        const hits = [0, 1].slice(0, panels).map((k) => {
          let n = 0;
          for (let y = 0; y < H; y++) {
            for (let px = 0; px < PW; px++) {
              if (!m[y * w + k * (PW + GAP) + px]) continue;
              n++;
              expect(px < 0.3 * PW || px > 0.68 * PW).toBe(true);
            }
          }
          return n;
        });
        // One panel only.
        expect(hits.filter((n) => n > 0).length).toBe(1);
        const n = Math.max(...hits);
        expect(n / (PW * H)).toBeGreaterThan(0.003);
        expect(n / (PW * H)).toBeLessThan(0.06);
        panelsHit.add(hits.indexOf(n) + 10 * panels);
      }
    }
    // Both panels of a two-panel strip are clipped in turn.
    expect([...panelsHit].sort()).toEqual([10, 20, 21]);
  });

  it('never on a back\'s left edge, where its values start; on a back\'s right edge within the spot\'s heights', async () => {
    const { png, w } = await strip(2);
    for (const model of ['2022', 'old'] as const) {
      let backs = 0;
      for (let seed = 1; seed <= 16; seed++) {
        const m = await changed(png, await paperClipped(png, model, rng(seed)), w);
        const spot = CLIP_SPOTS[model].back[0];
        let onBack = 0;
        for (let y = 0; y < H; y++) {
          for (let px = 0; px < PW; px++) {
            if (!m[y * w + PW + GAP + px]) continue;
            onBack++;
            expect(px).toBeGreaterThan(0.68 * PW);
            // The wire's axis lies in the spot's range; the U, its turn and its shadow reach 0.12 of the height past it.
            expect(y / H).toBeGreaterThan(spot.y[0] - 0.12);
            expect(y / H).toBeLessThan(spot.y[1] + 0.12);
          }
        }
        if (onBack > 0) backs++;
      }
      expect(backs).toBeGreaterThan(4);
    }
    for (const model of ['2022', 'old'] as const) expect(CLIP_SPOTS[model].back.every((s) => s.edge === 'right')).toBe(true);
  });

  it('spans a band of the panel\'s rows, not its height (the U 0.06-0.085 of the width across, turned at most 8 degrees, its shadow beside it)', async () => {
    const { png, w } = await strip(1);
    for (let seed = 1; seed <= 12; seed++) {
      const m = await changed(png, await paperClipped(png, seed % 2 ? '2022' : 'old', rng(seed)), w);
      let rowsAcross = 0;
      for (let y = 0; y < H; y++) if (m.slice(y * w, (y + 1) * w).some(Boolean)) rowsAcross++;
      expect(rowsAcross).toBeGreaterThan(0);
      expect(rowsAcross / H).toBeLessThan(0.35);
    }
  });

  it('has eight finishes, steel and coloured, each with a darker rim than its base', () => {
    expect(CLIP_FINISHES.length).toBe(8);
    const lum = (hex: string): number => {
      const v = parseInt(hex.slice(1), 16);
      return 0.299 * (v >> 16) + 0.587 * ((v >> 8) & 255) + 0.114 * (v & 255);
    };
    for (const f of CLIP_FINISHES) {
      expect(lum(f.shade)).toBeLessThan(lum(f.base));
      expect(lum(f.light)).toBeGreaterThan(lum(f.base));
    }
  });

  it('is drawn only for camera frames and scans, on about 40 % of them', () => {
    const r = rng(7);
    let n = 0;
    for (let i = 0; i < 400; i++) if (final33Draws('photo', '2022', r).clip) n++;
    expect(n).toBeGreaterThan(120);
    expect(n).toBeLessThan(200);
    for (const c of CLIPPED.filter((c) => c !== 'photo')) {
      let k = 0;
      for (let i = 0; i < 200; i++) if (final33Draws(c, 'old', r).clip) k++;
      expect(k).toBeGreaterThan(50);
      expect(k).toBeLessThan(110);
    }
    for (const c of ['clean', 'screenshot', 'pdf-text', 'pdf-image']) for (let i = 0; i < 50; i++) expect(final33Draws(c, 'old', r).clip).toBe(false);
  });
});
