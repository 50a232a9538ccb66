/**
 * Presentation media for the liveness bench's attack generator, drawn at their physical scale.
 *
 * A medium is a function of continuous medium coordinates (not a raster), so that structure finer
 * than a camera pixel (a 150-lpi halftone screen, a phone's subpixels) is neither lost nor aliased
 * before the camera sees it: `composite` integrates each frame pixel over 3 x 3 samples (a sensor
 * pixel integrating light; the beat between the medium's period and this sampling is the moiré a
 * recapture shows). The camera model (attacks.ts) then blurs, mosaics (Bayer RGGB), adds noise,
 * demosaics and compresses.
 *
 * Scales as drawn by attacks.ts (frame px = one pixel of the 400 x 400 capture): the photo part of a
 * medium spans 0.8-1.05 (far) or 1.25-1.5 (close-up) frame widths, i.e. 320-420 or 500-600 frame px.
 * Print: the photo printed 8-13 cm wide, so 0.19-0.41 mm per frame px far and 0.13-0.26 close-up; an AM
 * halftone of 150-200 lpi (0.127-0.169 mm) then has a period of about 0.3-0.9 frame px far and
 * 0.5-1.3 close-up (at most barely resolved: mostly seen as aliasing), paper mottle of 0.5 mm 1.2-3.8 frame px.
 * Screens (pitch = frame px per device pixel): a phone (400-460 ppi, photo shown 5-7 cm wide) or a
 * tablet (220-265 ppi, 10-16 cm) about 0.2-0.55 far and 0.3-0.75 close-up; a monitor showing the 250 px
 * photo at 100-200 % (about 90-110 ppi) 0.65-1.7 far and 1.0-2.4 close-up, where the RGB stripes (a
 * third of the pitch) and the dark gaps between rows start to be resolved and moiré bands are strong.
 * References for the scales: ISO 12647-2 (offset print screen rulings), typical display densities.
 */
import type { Raster } from './attacks.js';

/** A medium seen by the camera: `at` writes the RGB (0..255) at medium coordinates (u, v) and returns false outside it. */
export interface Medium {
  width: number;
  height: number;
  at(u: number, v: number, out: number[]): boolean;
}

const clamp8 = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

const COS_N = 4096;
const COS = Float32Array.from({ length: COS_N }, (_, i) => Math.cos((2 * Math.PI * i) / COS_N));
/** cos(2 pi t) from a 4096-entry table. */
const cos2pi = (t: number): number => COS[((Math.floor(t * COS_N) % COS_N) + COS_N) % COS_N];

/** Bilinear sample of a raster at continuous pixel coordinates (pixel centres at integers), edge clamped. */
export function sampleRaster(img: Raster, x: number, y: number, out: number[]): void {
  const cx = x < 0 ? 0 : x > img.width - 1 ? img.width - 1 : x;
  const cy = y < 0 ? 0 : y > img.height - 1 ? img.height - 1 : y;
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const x1 = Math.min(x0 + 1, img.width - 1);
  const y1 = Math.min(y0 + 1, img.height - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const d = img.data;
  for (let c = 0; c < 3; c++) {
    const a = d[(y0 * img.width + x0) * 3 + c];
    const b = d[(y0 * img.width + x1) * 3 + c];
    const e = d[(y1 * img.width + x0) * 3 + c];
    const f = d[(y1 * img.width + x1) * 3 + c];
    out[c] = (a + (b - a) * fx) * (1 - fy) + (e + (f - e) * fx) * fy;
  }
}

/** Homography (3x3, row-major) taking the 4 points `from` to `to` (direct linear solve). */
export function homography(from: number[][], to: number[][]): number[] {
  const A: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i];
    const [u, v] = to[i];
    A.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    A.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  for (let c = 0; c < 8; c++) {
    let piv = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(A[r][c]) > Math.abs(A[piv][c])) piv = r;
    [A[c], A[piv]] = [A[piv], A[c]];
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = A[r][c] / A[c][c];
      for (let k = c; k < 9; k++) A[r][k] -= f * A[c][k];
    }
  }
  return [...Array.from({ length: 8 }, (_, i) => A[i][8] / A[i][i]), 1];
}

/** Sub-sample offsets of a frame pixel (3 x 3, pixel centre at 0). */
const SUB = Array.from({ length: 9 }, (_, i) => [((i % 3) + 0.5) / 3 - 0.5, (Math.floor(i / 3) + 0.5) / 3 - 0.5]);

/**
 * Places `medium` into `scene` at the quad `corners` (frame px, clockwise from the medium's top-left),
 * each frame pixel the mean of 3 x 3 samples; `mask(u01, v01)` (0..1) cuts the medium (cut-outs).
 */
export function composite(scene: Raster, medium: Medium, corners: number[][], mask?: (u: number, v: number) => number): Raster {
  const Hm = homography(corners, [[0, 0], [medium.width, 0], [medium.width, medium.height], [0, medium.height]]);
  const out = new Uint8Array(scene.data);
  const px = [0, 0, 0];
  for (let y = 0; y < scene.height; y++) {
    for (let x = 0; x < scene.width; x++) {
      let r = 0, g = 0, b = 0, w = 0;
      for (const [ox, oy] of SUB) {
        const X = x + 0.5 + ox, Y = y + 0.5 + oy;
        const d = Hm[6] * X + Hm[7] * Y + Hm[8];
        const u = (Hm[0] * X + Hm[1] * Y + Hm[2]) / d;
        const v = (Hm[3] * X + Hm[4] * Y + Hm[5]) / d;
        if (!medium.at(u, v, px)) continue;
        const a = mask ? mask(u / medium.width, v / medium.height) : 1;
        if (a <= 0) continue;
        r += px[0] * a; g += px[1] * a; b += px[2] * a; w += a;
      }
      if (w === 0) continue;
      const o = (y * scene.width + x) * 3;
      const k = w / SUB.length;
      out[o] = clamp8(out[o] * (1 - k) + r / SUB.length);
      out[o + 1] = clamp8(out[o + 1] * (1 - k) + g / SUB.length);
      out[o + 2] = clamp8(out[o + 2] * (1 - k) + b / SUB.length);
    }
  }
  return { width: scene.width, height: scene.height, data: out };
}

/** Smooth random field, values about -1..1, correlation length `cell` (units of its coordinates): value noise, bilinear. */
function valueNoise(cell: number, rnd: () => number): (u: number, v: number) => number {
  const N = 64;
  const g = new Float32Array(N * N).map(() => rnd() * 2 - 1);
  return (u, v) => {
    const x = u / cell, y = v / cell;
    const x0 = Math.floor(x), y0 = Math.floor(y);
    const fx = x - x0, fy = y - y0;
    const i0 = ((x0 % N) + N) % N, j0 = ((y0 % N) + N) % N;
    const i1 = (i0 + 1) % N, j1 = (j0 + 1) % N;
    const a = g[j0 * N + i0] + (g[j0 * N + i1] - g[j0 * N + i0]) * fx;
    const b = g[j1 * N + i0] + (g[j1 * N + i1] - g[j1 * N + i0]) * fx;
    return a + (b - a) * fy;
  };
}

/**
 * A photo printed with a CMYK amplitude-modulated halftone and seen at its physical scale.
 * Medium units: photo px. @param period the halftone period in photo px (from the screen ruling and
 * the framing, see the module doc); @param margin white paper around the photo, share of its width;
 * @param mottle paper mottle correlation length, photo px. Ink gamut: four process inks over a paper
 * white of 235-253; mottle +-3 % of the reflectance.
 */
export function printMedium(photo: Raster, period: number, margin: number, mottle: number, rnd: () => number): Medium {
  const m = photo.width * margin;
  const W = photo.width + 2 * m;
  const H = photo.height + 2 * m;
  const angles = [15, 75, 0, 45].map((a) => ((a + rnd() * 4) * Math.PI) / 180);
  const paper = [245 + rnd() * 8, 243 + rnd() * 8, 235 + rnd() * 10];
  const ink = [[0, 160, 230], [220, 0, 130], [255, 230, 0], [25, 25, 30]]; // C, M, Y, K as RGB absorption targets
  const f = Float64Array.from(ink.flat(), (x) => (x + 25) / 280);
  const ca = angles.map(Math.cos);
  const sa = angles.map(Math.sin);
  const noise = valueNoise(mottle, rnd);
  const px = [0, 0, 0];
  const cov = new Float64Array(4);
  return {
    width: W,
    height: H,
    at(u, v, out) {
      if (u < 0 || v < 0 || u >= W || v >= H) return false;
      const t = 1 + 0.03 * noise(u, v);
      let r = paper[0] * t, g = paper[1] * t, b = paper[2] * t;
      const iu = u - m, iv = v - m;
      if (iu >= 0 && iv >= 0 && iu < photo.width && iv < photo.height) {
        sampleRaster(photo, iu - 0.5, iv - 0.5, px);
        const R = px[0] / 255, G = px[1] / 255, B = px[2] / 255;
        const K = 1 - Math.max(R, G, B);
        const den = 1 - K + 1e-6;
        cov[0] = (1 - R - K) / den; cov[1] = (1 - G - K) / den; cov[2] = (1 - B - K) / den; cov[3] = K;
        for (let k = 0; k < 4; k++) {
          const a = (u * ca[k] + v * sa[k]) / period;
          const c = (-u * sa[k] + v * ca[k]) / period;
          // dot function in -1..1; inked where it is below the coverage threshold
          const spot = (cos2pi(a) + cos2pi(c)) / 2;
          if (spot < 1 - 2 * Math.min(1, cov[k] * 1.05)) continue;
          r *= f[3 * k]; g *= f[3 * k + 1]; b *= f[3 * k + 2];
        }
      }
      out[0] = r; out[1] = g; out[2] = b;
      return true;
    },
  };
}

/**
 * A photo on an LCD at its physical scale. Medium units: device px. The photo is shown resampled to
 * `deviceWidth` device px across; each device pixel is three vertical R|G|B stripes (the unlit ones
 * leak 12 %) with a dark gap on its last 15 % of height; a bezel of `bezel` device px around; emissive
 * gain and a blue-ish white point.
 */
export function screenMedium(photo: Raster, deviceWidth: number, bezel: number, rnd: () => number): Medium {
  const k = deviceWidth / photo.width;
  const aw = deviceWidth;
  const ah = photo.height * k;
  const W = aw + 2 * bezel;
  const H = ah + 2 * bezel;
  const gain = 1.05 + rnd() * 0.2;
  const white = [0.92, 0.97, 1.0];
  const bezelGrey = 10 + rnd() * 25;
  const px = [0, 0, 0];
  return {
    width: W,
    height: H,
    at(u, v, out) {
      if (u < 0 || v < 0 || u >= W || v >= H) return false;
      const du = u - bezel, dv = v - bezel;
      if (du < 0 || dv < 0 || du >= aw || dv >= ah) {
        out[0] = out[1] = out[2] = bezelGrey;
        return true;
      }
      const cx = Math.floor(du), cy = Math.floor(dv);
      sampleRaster(photo, (cx + 0.5) / k - 0.5, (cy + 0.5) / k - 0.5, px);
      const sub = Math.min(2, Math.floor((du - cx) * 3));
      const gap = dv - cy > 0.85 ? 0.55 : 1;
      for (let c = 0; c < 3; c++) out[c] = px[c] * 2.2 * (c === sub ? 1 : 0.12) * gap * gain * white[c] + 6;
      return true;
    },
  };
}
