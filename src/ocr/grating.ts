/**
 * A fine periodic grating (moiré) taken out of a gray page, tile by tile in the frequency domain.
 *
 * Why: a camera's sensor grid beating with a fine pattern (a printed halftone, a screen, a woven
 * sleeve) lays curved bands of light across the frame: locally a sinusoid of one period (4-12 px at a
 * card's size) that multiplies every pixel. The contrast stretch then turns the bands into black and
 * white rings over the whole card, and the recogniser's page layout sees rows of texture where the
 * labels are (final20's moiré documents: 48.8 % exact, several with no label found). A grating bent by a
 * chirp has no single frequency over the page, but over a 64 px tile its frequency hardly moves, so each
 * tile's spectrum shows it as one sharp peak (and its mirror), while type's energy is spread over many
 * bins. The classic periodic-noise notch (Gonzalez & Woods, Digital Image Processing, "notch reject
 * filters"), done per tile: the page's logarithm (so the multiplicative bands add), windowed tiles
 * (sine window, half overlap: analysis x synthesis windows sum to one), in each tile the strongest bin
 * beyond type's low frequencies zeroed with its neighbours when it stands far over the tile's median
 * power, then overlap-add and back from the logarithm.
 */

/** Tile side (px): a power of two. */
const TILE = 64;
/** Bins nearer DC than this (periods over TILE / LOW_BINS = 16 px: lines, words, the paper's light) are never notched. */
const LOW_BINS = 4;
/**
 * A tile's peak is notched when its power is at least this many times the mean power of the tile's notchable
 * bins (a grating's tiles on final20: mostly 100-1100 times; type and security print without one: mostly 30-200),
 * and PEAK_OVER_RING over its ring: the ring test is what keeps type's own peaks.
 */
const PEAK_OVER_MEAN = 20;
/** ... and this many times the mean power of the bins around it (Chebyshev distance NOTCH_RADIUS + 1 to RING). */
const PEAK_OVER_RING = 30;
/** Outer radius (bins) of the ring a peak is measured against. */
const RING = 3;
/**
 * The weakest grating seen: a multiplicative ripple of 2 % (a log amplitude of 0.02; final20's are 8-20 %),
 * as the power of its bin in a sine-windowed tile, (0.02 x TILE^2 / 8)^2. A weaker peak is not a grating
 * however it stands out (blank paper's tiles have almost no power in any bin).
 */
const MIN_PEAK_POWER = (0.02 * TILE * TILE / 8) ** 2;
/** Bins zeroed about a peak (Chebyshev radius): the grating's modulation of the paper spreads over a few bins. */
const NOTCH_RADIUS = 1;
/** Peaks notched per tile at most (a grating and, where the camera clipped it, its harmonic or a second beat). */
const PEAKS_PER_TILE = 3;

/** Bit-reversal permutation and twiddles of a length-n FFT (n a power of two). */
function plan(n: number): { rev: Uint16Array; cos: Float64Array; sin: Float64Array } {
  const rev = new Uint16Array(n), bits = Math.log2(n);
  for (let i = 0; i < n; i++) { let r = 0; for (let b = 0; b < bits; b++) if (i & (1 << b)) r |= 1 << (bits - 1 - b); rev[i] = r; }
  const cos = new Float64Array(n / 2), sin = new Float64Array(n / 2);
  for (let k = 0; k < n / 2; k++) { cos[k] = Math.cos((2 * Math.PI * k) / n); sin[k] = Math.sin((2 * Math.PI * k) / n); }
  return { rev, cos, sin };
}

/** In-place radix-2 complex FFT of length n (`re`, `im` at `off` with `stride`); `inverse` unscaled. */
function fft(re: Float64Array, im: Float64Array, off: number, stride: number, n: number, inverse: boolean, p: ReturnType<typeof plan>): void {
  for (let i = 1; i < n; i++) {
    const j = p.rev[i];
    if (i < j) {
      const a = off + i * stride, b = off + j * stride;
      let t = re[a]; re[a] = re[b]; re[b] = t;
      t = im[a]; im[a] = im[b]; im[b] = t;
    }
  }
  const sign = inverse ? 1 : -1;
  for (let len = 2; len <= n; len <<= 1) {
    const h = len >> 1, step = n / len;
    for (let i = 0; i < n; i += len) {
      for (let k = 0; k < h; k++) {
        const cr = p.cos[k * step], ci = sign * p.sin[k * step];
        const a = off + (i + k) * stride, b = a + h * stride;
        const xr = re[b] * cr - im[b] * ci, xi = re[b] * ci + im[b] * cr;
        re[b] = re[a] - xr; im[b] = im[a] - xi;
        re[a] += xr; im[a] += xi;
      }
    }
  }
}

/** 2-D FFT of an n x n tile (rows then columns). */
function fft2(re: Float64Array, im: Float64Array, n: number, inverse: boolean, p: ReturnType<typeof plan>): void {
  for (let y = 0; y < n; y++) fft(re, im, y * n, 1, n, inverse, p);
  for (let x = 0; x < n; x++) fft(re, im, x, n, n, inverse, p);
}

/**
 * What removeGrating did: the page without the grating; `share`: the share of tiles where one was found
 * and notched; `peak`: gratingPeak's survey of the page (GRATING_PEAK and more: a grating across the page;
 * under it the page came back untouched).
 */
export interface Degrated { data: Uint8Array; share: number; peak: number }

/**
 * A page whose survey (gratingPeak) reaches this has a grating across it. Measured on final20's camera
 * frames scaled to 820 px: the sixteen with moiré 383-781, the others 0-59 (over every tile and without
 * MIN_PEAK_POWER's floor: 222-800 against 30-315, security print's waves and a low JPEG's 8 px blocks
 * standing out of a tile's spectrum); tuning's image documents all 0, final19's at most 77.
 */
export const GRATING_PEAK = 200;

/**
 * The gray page `data` (w x h, 8 bit) with a fine periodic grating notched out tile by tile (module
 * comment); `share`: the share of the page's tiles (0-1) whose spectrum showed one. A page whose survey
 * (gratingPeak) stays under GRATING_PEAK comes back as it was (the same array). Cost with a grating: two
 * 64 x 64 FFTs per 32 px step, about 1 CPU s for a 2604 x 820 page (measured 0.92-1.10 s under load).
 */
export function removeGrating(data: Uint8Array, w: number, h: number): Degrated {
  // A survey first (gratingPeak): a page without a grating comes back as it was for a sixteenth of the cost.
  const surveyed = gratingPeak(data, w, h);
  if (surveyed < GRATING_PEAK) return { data, share: 0, peak: surveyed };
  const n = TILE, half = n / 2;
  const log = new Float64Array(256);
  for (let v = 0; v < 256; v++) log[v] = Math.log(v + 1);
  const win = new Float64Array(n);
  for (let i = 0; i < n; i++) win[i] = Math.sin((Math.PI * (i + 0.5)) / n);
  const acc = new Float64Array(w * h), wsum = new Float64Array(w * h);
  const re = new Float64Array(n * n), im = new Float64Array(n * n), power = new Float64Array(n * n);
  // Mirrored about the page's border (once; a page narrower than a tile is clamped).
  const reflect = (x: number, m: number): number => Math.min(m - 1, Math.max(0, x < 0 ? -x - 1 : x >= m ? 2 * m - x - 1 : x));
  let tiles = 0, found = 0;
  const fp = plan(n);
  // Bins beyond type's low frequencies, in the upper half plane only (a real tile's spectrum is symmetric).
  const notch = new Uint8Array(n * n), upper: number[] = [];
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      const fu = u > half ? u - n : u, fv = v > half ? v - n : v;
      if (Math.max(Math.abs(fu), Math.abs(fv)) < LOW_BINS) continue;
      notch[v * n + u] = 1;
      if (fv > 0 || (fv === 0 && fu > 0) || (fv === -half && fu >= 0)) upper.push(v * n + u);
    }
  }
  for (let ty = -half; ty < h; ty += half) {
    for (let tx = -half; tx < w; tx += half) {
      let mean = 0;
      for (let y = 0; y < n; y++) {
        const row = reflect(ty + y, h) * w;
        for (let x = 0; x < n; x++) {
          const v = log[data[row + reflect(tx + x, w)]];
          re[y * n + x] = v;
          mean += v;
        }
      }
      mean /= n * n;
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) { re[y * n + x] = (re[y * n + x] - mean) * win[x] * win[y]; im[y * n + x] = 0; }
      fft2(re, im, n, false, fp);
      let total = 0;
      for (const b of upper) { const p = re[b] * re[b] + im[b] * im[b]; power[b] = p; total += p; }
      const meanPower = total / upper.length || 1e-12;
      tiles++;
      let notched = false;
      // The strongest bins, each notched when it stands out of the tile (PEAK_OVER_MEAN) and of the bins
      // around it (PEAK_OVER_RING: a grating is one sharp peak; type's energy, however strong, is spread).
      for (let k = 0; k < PEAKS_PER_TILE; k++) {
        let best = -1, bestP = 0;
        for (const b of upper) if (power[b] > bestP) { bestP = power[b]; best = b; }
        if (best < 0 || bestP < PEAK_OVER_MEAN * meanPower || bestP < MIN_PEAK_POWER) break;
        const bu = best % n, bv = (best / n) | 0;
        let ring = 0, ringN = 0;
        for (let dv = -RING; dv <= RING; dv++) {
          for (let du = -RING; du <= RING; du++) {
            if (Math.max(Math.abs(du), Math.abs(dv)) <= NOTCH_RADIUS) continue;
            const j = ((bv + dv + n) % n) * n + ((bu + du + n) % n);
            if (notch[j]) { ring += re[j] * re[j] + im[j] * im[j]; ringN++; }
          }
        }
        power[best] = 0;
        if (ringN === 0 || bestP < PEAK_OVER_RING * (ring / ringN)) continue;
        notched = true;
        for (const [cu, cv] of [[bu, bv], [(n - bu) % n, (n - bv) % n]]) {
          for (let dv = -NOTCH_RADIUS; dv <= NOTCH_RADIUS; dv++) {
            for (let du = -NOTCH_RADIUS; du <= NOTCH_RADIUS; du++) {
              const u = (cu + du + n) % n, v = (cv + dv + n) % n;
              if (!notch[v * n + u]) continue;
              re[v * n + u] = 0; im[v * n + u] = 0; power[v * n + u] = 0;
            }
          }
        }
      }
      if (notched) { found++; fft2(re, im, n, true, fp); }
      for (let y = 0; y < n; y++) {
        const py = ty + y;
        if (py < 0 || py >= h) continue;
        for (let x = 0; x < n; x++) {
          const px = tx + x;
          if (px < 0 || px >= w) continue;
          const wxy = win[x] * win[y], i = py * w + px;
          // The analysis window times the synthesis window (sin^2 at half overlap: the weights sum to one);
          // the inverse FFT is unscaled (1 / n^2) and gives the windowed tile less its mean.
          acc[i] += (notched ? re[y * n + x] / (n * n) + mean * wxy : log[data[i]] * wxy) * wxy;
          wsum[i] += wxy * wxy;
        }
      }
    }
  }
  const out = new Uint8Array(w * h);
  for (let i = 0; i < out.length; i++) {
    const v = Math.exp(acc[i] / (wsum[i] || 1)) - 1;
    out[i] = v < 0 ? 0 : v > 255 ? 255 : Math.round(v);
  }
  return { data: out, share: tiles ? found / tiles : 0, peak: surveyed };
}

/** Step (px) between the tiles gratingPeak looks at: one tile in SURVEY_STEP / TILE along each axis, no overlap. */
const SURVEY_STEP = 128;

/**
 * How strongly a grating stands out of the gray page `data` (w x h): over tiles of TILE px every
 * SURVEY_STEP px, the median of the strongest notchable bin's power over the tile's mean power (0 for a
 * tile whose strongest bin is under MIN_PEAK_POWER: blank paper). GRATING_PEAK and more: a grating across
 * the page. Forward FFTs of a sixteenth of the page's tiles: about 30 ms for a 2604 x 820 page.
 */
export function gratingPeak(data: Uint8Array, w: number, h: number): number {
  const n = TILE, half = n / 2, fp = plan(n);
  const win = new Float64Array(n);
  for (let i = 0; i < n; i++) win[i] = Math.sin((Math.PI * (i + 0.5)) / n);
  const re = new Float64Array(n * n), im = new Float64Array(n * n);
  const upper: number[] = [];
  for (let v = 0; v < n; v++) {
    for (let u = 0; u < n; u++) {
      const fu = u > half ? u - n : u, fv = v > half ? v - n : v;
      if (Math.max(Math.abs(fu), Math.abs(fv)) < LOW_BINS) continue;
      if (fv > 0 || (fv === 0 && fu > 0) || (fv === -half && fu >= 0)) upper.push(v * n + u);
    }
  }
  const ratios: number[] = [];
  for (let ty = 0; ty + n <= h; ty += SURVEY_STEP) {
    for (let tx = 0; tx + n <= w; tx += SURVEY_STEP) {
      let mean = 0;
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) { const v = Math.log(data[(ty + y) * w + tx + x] + 1); re[y * n + x] = v; mean += v; }
      mean /= n * n;
      for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) { re[y * n + x] = (re[y * n + x] - mean) * win[x] * win[y]; im[y * n + x] = 0; }
      fft2(re, im, n, false, fp);
      let total = 0, m = 0;
      for (const b of upper) { const p = re[b] * re[b] + im[b] * im[b]; total += p; if (p > m) m = p; }
      ratios.push(m >= MIN_PEAK_POWER ? m / (total / upper.length || 1e-12) : 0);
    }
  }
  ratios.sort((a, b) => a - b);
  return ratios.length ? ratios[ratios.length >> 1] : 0;
}
