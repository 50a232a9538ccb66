/**
 * Injection signals computed from the frames: the colour-reflection response to the challenge and
 * the sensor-noise evidence. Pure functions over small RGB rasters (the frames scaled to
 * ANALYSIS_WIDTH x ANALYSIS_HEIGHT); docs/liveness-payload.md gives the rules and their limits.
 *
 * Reflection (after the iProov / AWS Face Liveness principle): a screen that turns red, green,
 * blue... lights a face 30-60 cm away enough to move the face's mean chromaticity r/(r+g+b),
 * g/(...), b/(...) toward that colour. Per colour of the challenge we average the chromaticity of
 * the face region over the frames captured while it was settled on screen (150 ms after it was
 * put up), centre both the observed and the expected (palette) chromaticities over the sequence
 * and take their cosine similarity. A pre-recorded or synthesised stream does not follow a
 * sequence drawn a moment ago; a static injected image does not move at all.
 */

export const ANALYSIS_WIDTH = 160;
export const ANALYSIS_HEIGHT = 120;

/** Rules' constants (documented in docs/liveness-payload.md). */
export const REFLECTION_LIMITS = {
  /** A frame counts for a colour from this long after the colour was shown. */
  settleMs: 150,
  /** Colours that need at least one settled frame. */
  minColoursSeen: 3,
  /** RMS of the centred observed chromaticity below which there is no measurable response. */
  minAmplitude: 0.003,
  /** Cosine at or above which the response follows the sequence. */
  followCosine: 0.6,
  /** Cosine below which a measurable response contradicts the sequence. */
  contradictCosine: 0.2,
  /** Mean absolute luma difference (0..255) between consecutive frames below which they are copies. */
  noiseFloor: 0.05,
  /** Share of consecutive frame pairs that must be copies for the no-sensor-noise rule. */
  copiedShare: 0.8,
  /** Median normalised cross-correlation of the face's luma, key frame vs challenge frames, below which the face changed. */
  minFaceCorrelation: 0.5,
} as const;

export interface Raster {
  width: number;
  height: number;
  /** RGB, 3 bytes per pixel. */
  data: Uint8Array;
}

export interface Region {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** Mean R, G, B of a region. */
export function meanRgb(img: Raster, r: Region): [number, number, number] {
  let R = 0;
  let G = 0;
  let B = 0;
  let n = 0;
  for (let y = Math.max(0, r.y0); y < Math.min(img.height, r.y1); y++) {
    for (let x = Math.max(0, r.x0); x < Math.min(img.width, r.x1); x++) {
      const p = (y * img.width + x) * 3;
      R += img.data[p];
      G += img.data[p + 1];
      B += img.data[p + 2];
      n++;
    }
  }
  return n ? [R / n, G / n, B / n] : [0, 0, 0];
}

const chroma = ([r, g, b]: [number, number, number]): [number, number, number] => {
  const s = r + g + b || 1;
  return [r / s, g / s, b / s];
};

export interface ReflectionInput {
  /** Colours of the challenge (RGB 0..255) in order and when each was shown, ms from the first (client clock). */
  colours: Array<{ rgb: [number, number, number]; shownMs: number; durationMs: number }>;
  /** Challenge frames with their capture time on the same clock. */
  frames: Array<{ tMs: number; raster: Raster }>;
  /** Face region in raster pixels. */
  face: Region;
}

export interface ReflectionResult {
  coloursSeen: number;
  /** RMS of the centred observed chromaticity (0 = no response). */
  amplitude: number;
  /** Cosine between observed and expected centred chromaticity; 0 when undefined. */
  cosine: number;
  /** Best cosine when the colours are assigned to the wrong time slots (cyclic shifts): a response that follows time should beat it. */
  shiftedCosine: number;
  verdict: 'follows' | 'weak' | 'contradicts' | 'none';
}

/** Colour-reflection response of the face to the challenge. */
export function reflectionResponse(input: ReflectionInput, limits = REFLECTION_LIMITS): ReflectionResult {
  const K = input.colours.length;
  const sums = Array.from({ length: K }, () => ({ c: [0, 0, 0], n: 0 }));
  for (const f of input.frames) {
    const k = input.colours.findIndex((c) => f.tMs >= c.shownMs + limits.settleMs && f.tMs < c.shownMs + c.durationMs);
    if (k < 0) continue;
    const c = chroma(meanRgb(f.raster, input.face));
    for (let i = 0; i < 3; i++) sums[k].c[i] += c[i];
    sums[k].n++;
  }
  const seen = sums.map((s, k) => ({ k, n: s.n, c: s.c.map((v) => v / (s.n || 1)) })).filter((s) => s.n > 0);
  const none: ReflectionResult = { coloursSeen: seen.length, amplitude: 0, cosine: 0, shiftedCosine: 0, verdict: 'none' };
  if (seen.length < limits.minColoursSeen) return none;

  const centre = (vs: number[][]): number[][] => {
    const m = [0, 1, 2].map((i) => vs.reduce((a, v) => a + v[i], 0) / vs.length);
    return vs.map((v) => v.map((x, i) => x - m[i]));
  };
  const observed = centre(seen.map((s) => s.c));
  const cosineWith = (assign: (j: number) => number): number => {
    const expected = centre(seen.map((_s, j) => chroma(input.colours[assign(j)].rgb)));
    let dot = 0;
    let no = 0;
    let ne = 0;
    observed.forEach((o, j) => o.forEach((v, i) => {
      dot += v * expected[j][i];
      no += v * v;
      ne += expected[j][i] ** 2;
    }));
    return no > 0 && ne > 0 ? dot / Math.sqrt(no * ne) : 0;
  };
  const amplitude = Math.sqrt(observed.reduce((a, o) => a + o.reduce((b, v) => b + v * v, 0), 0) / observed.length);
  const cosine = cosineWith((j) => seen[j].k);
  let shiftedCosine = -1;
  for (let s = 1; s < seen.length; s++) shiftedCosine = Math.max(shiftedCosine, cosineWith((j) => seen[(j + s) % seen.length].k));

  let verdict: ReflectionResult['verdict'];
  if (amplitude < limits.minAmplitude) verdict = 'none';
  else if (cosine >= limits.followCosine && cosine > shiftedCosine) verdict = 'follows';
  else if (cosine < limits.contradictCosine) verdict = 'contradicts';
  else verdict = 'weak';
  return { coloursSeen: seen.length, amplitude, cosine, shiftedCosine, verdict };
}

/**
 * Sensor-noise evidence: share of consecutive frame pairs whose mean absolute luma difference is
 * under the noise floor. A camera sensor never delivers two identical frames; a virtual camera or
 * an injected still does.
 */
export function copiedFrameShare(rasters: Raster[], limits = REFLECTION_LIMITS): number {
  if (rasters.length < 2) return 0;
  let copies = 0;
  for (let i = 1; i < rasters.length; i++) {
    const a = rasters[i - 1].data;
    const b = rasters[i].data;
    let d = 0;
    for (let p = 0; p < a.length; p += 3) {
      d += Math.abs(0.299 * (a[p] - b[p]) + 0.587 * (a[p + 1] - b[p + 1]) + 0.114 * (a[p + 2] - b[p + 2]));
    }
    if (d / (a.length / 3) < limits.noiseFloor) copies++;
  }
  return copies / (rasters.length - 1);
}

/** Luma of a region, one value per pixel. */
function lumaPatch(img: Raster, r: Region): Float64Array {
  const x0 = Math.max(0, r.x0);
  const y0 = Math.max(0, r.y0);
  const x1 = Math.min(img.width, r.x1);
  const y1 = Math.min(img.height, r.y1);
  const out = new Float64Array(Math.max(0, (x1 - x0) * (y1 - y0)));
  let i = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const p = (y * img.width + x) * 3;
      out[i++] = 0.299 * img.data[p] + 0.587 * img.data[p + 1] + 0.114 * img.data[p + 2];
    }
  }
  return out;
}

/** Zero-mean normalised cross-correlation of two equal-length signals (0 when either is flat). */
export function ncc(a: Float64Array, b: Float64Array): number {
  const n = a.length;
  if (n === 0 || b.length !== n) return 0;
  let ma = 0;
  let mb = 0;
  for (let i = 0; i < n; i++) {
    ma += a[i];
    mb += b[i];
  }
  ma /= n;
  mb /= n;
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    const da = a[i] - ma;
    const db = b[i] - mb;
    ab += da * db;
    aa += da * da;
    bb += db * db;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}

/**
 * Whether the challenge frames show the face of the key frame: median over the challenge frames of
 * the normalised cross-correlation of the face region's luma with the key frame's (the colours shift
 * the luma by an affine amount, which NCC ignores). Splicing a genuine selfie with other challenge
 * frames, or swapping the face mid-capture, lowers it.
 */
export function faceConsistency(key: Raster, challenge: Raster[], face: Region): number {
  if (challenge.length === 0) return 1;
  const k = lumaPatch(key, face);
  const scores = challenge.map((c) => ncc(k, lumaPatch(c, face))).sort((a, b) => a - b);
  return scores[Math.floor(scores.length / 2)];
}
