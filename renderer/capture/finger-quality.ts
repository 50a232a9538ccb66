/** A quick client-side fingerprint quality estimate shown while capturing (the engine has the final word). */

export type FingerQuality = 'good' | 'fair' | 'poor';

/**
 * Estimates the quality of a fingerprint image from its ridge contrast: the share of 16x16 blocks
 * (on a 256-pixel-wide copy) whose grey-level standard deviation exceeds 18, i.e. blocks with
 * visible ridges. >= 45% good, >= 25% fair, else poor. Returns the label and the share (0..1).
 */
export async function estimateFingerQuality(dataUrl: string): Promise<{ quality: FingerQuality; share: number }> {
  const img = new Image();
  img.src = dataUrl;
  await img.decode();
  const w = 256;
  const h = Math.max(16, Math.round((img.naturalHeight / img.naturalWidth) * w));
  const canvas = document.createElement('canvas');
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(img, 0, 0, w, h);
  const { data } = ctx.getImageData(0, 0, w, h);
  let blocks = 0;
  let ridged = 0;
  for (let by = 0; by + 16 <= h; by += 16) {
    for (let bx = 0; bx + 16 <= w; bx += 16) {
      let sum = 0;
      let sq = 0;
      for (let y = by; y < by + 16; y++) {
        for (let x = bx; x < bx + 16; x++) {
          const v = data[(y * w + x) * 4]!;
          sum += v;
          sq += v * v;
        }
      }
      const mean = sum / 256;
      blocks += 1;
      if (Math.sqrt(Math.max(0, sq / 256 - mean * mean)) > 18) ridged += 1;
    }
  }
  const share = blocks ? ridged / blocks : 0;
  return { quality: share >= 0.45 ? 'good' : share >= 0.25 ? 'fair' : 'poor', share };
}
