/**
 * What the face guide measures on a detected face besides its box: head pose (yaw), eye openness
 * and sharpness. Pure functions over the 68 landmarks of face-api's landmark net (iBUG 300-W
 * numbering: jaw 0-16, nose 27-35, eyes 36-41 and 42-47) and over grey pixels, plus one canvas
 * helper that crops the face from a video frame.
 */

/** A landmark in source pixels. */
export interface Point {
  x: number;
  y: number;
}

const mean = (pts: Point[], from: number, to: number): Point => {
  let x = 0;
  let y = 0;
  for (let i = from; i <= to; i++) {
    x += pts[i]!.x;
    y += pts[i]!.y;
  }
  const n = to - from + 1;
  return { x: x / n, y: y / n };
};
const clamp1 = (v: number): number => Math.max(-1, Math.min(1, v));
const DEG = 180 / Math.PI;

/**
 * Yaw in degrees from 68 landmarks, the same geometric estimate as the station's quality gate
 * (src/face/quality.ts `estimatePose`): de-roll with the eye line, then yaw = asin(2r - 1) with r
 * the nose tip's (30) horizontal position between the jaw ends (0 and 16). 0 = frontal; the sign
 * says which way (positive: nose towards the image's right).
 * @throws RangeError when fewer than 68 points are given.
 */
export function yawDeg(pts: Point[]): number {
  if (pts.length < 68) throw new RangeError(`68 landmarks expected, got ${pts.length}`);
  const l = mean(pts, 36, 41);
  const r = mean(pts, 42, 47);
  const roll = Math.atan2(r.y - l.y, r.x - l.x);
  const cos = Math.cos(-roll);
  const sin = Math.sin(-roll);
  const rotX = (p: Point) => p.x * cos - p.y * sin;
  const j0 = rotX(pts[0]!);
  const j16 = rotX(pts[16]!);
  const ratio = (rotX(pts[30]!) - j0) / (j16 - j0 || 1);
  return Math.asin(clamp1(2 * ratio - 1)) * DEG;
}

/**
 * Eye aspect ratio (EAR) of the more open eye: for each eye (p1..p6 = 36..41 and 42..47),
 * (|p2 - p6| + |p3 - p5|) / (2 |p1 - p4|) (Soukupová & Čech, "Real-Time Eye Blink Detection using
 * Facial Landmarks", CVWW 2016). Open eyes ~0.25-0.35, closed ~0.1-0.15. Unitless.
 * @throws RangeError when fewer than 68 points are given.
 */
export function eyeAspectRatio(pts: Point[]): number {
  if (pts.length < 68) throw new RangeError(`68 landmarks expected, got ${pts.length}`);
  const d = (a: number, b: number) => Math.hypot(pts[a]!.x - pts[b]!.x, pts[a]!.y - pts[b]!.y);
  const ear = (o: number) => (d(o + 1, o + 5) + d(o + 2, o + 4)) / (2 * (d(o, o + 3) || 1));
  return Math.max(ear(36), ear(42));
}

/**
 * Variance of the 4-neighbour Laplacian over the central part of a grey image (margins of 1/6 cut,
 * like the station's chip measure): a focus measure (Pech-Pacheco et al., "Diatom autofocusing in
 * brightfield microscopy: a comparative study", ICPR 2000). `grey` is row-major, 0..255, w x h.
 * Units: grey levels squared. @throws RangeError when the image is smaller than 6x6 or `grey` is short.
 */
export function laplacianVariance(grey: ArrayLike<number>, w: number, h: number): number {
  if (w < 6 || h < 6 || grey.length < w * h) throw new RangeError(`grey image of at least 6x6 expected, got ${w}x${h} (${grey.length} values)`);
  const mx = Math.max(1, Math.round(w / 6));
  const my = Math.max(1, Math.round(h / 6));
  let s = 0;
  let s2 = 0;
  let n = 0;
  for (let y = my; y < h - my; y++) {
    for (let x = mx; x < w - mx; x++) {
      const i = y * w + x;
      const lap = grey[i - 1]! + grey[i + 1]! + grey[i - w]! + grey[i + w]! - 4 * grey[i]!;
      s += lap;
      s2 += lap * lap;
      n++;
    }
  }
  const m = s / n;
  return s2 / n - m * m;
}

/** Side (px) of the square the face crop is resampled to before the sharpness measure. */
export const SHARPNESS_SIDE_PX = 96;

let cropCanvas: HTMLCanvasElement | null = null;
/**
 * Sharpness of a face in a frame: the box's central square (the face without hair and background,
 * 70 % of the box width) resampled to SHARPNESS_SIDE_PX and measured with `laplacianVariance`, so
 * the figure does not depend on how large the face is in the frame.
 */
export function faceSharpness(source: CanvasImageSource, box: { x: number; y: number; width: number; height: number }): number {
  const side = SHARPNESS_SIDE_PX;
  cropCanvas ??= document.createElement('canvas');
  cropCanvas.width = side;
  cropCanvas.height = side;
  const ctx = cropCanvas.getContext('2d', { willReadFrequently: true })!;
  const s = box.width * 0.7;
  ctx.drawImage(source, box.x + (box.width - s) / 2, box.y + (box.height - s) / 2, s, s, 0, 0, side, side);
  const { data } = ctx.getImageData(0, 0, side, side);
  const grey = new Float32Array(side * side);
  for (let i = 0; i < grey.length; i++) grey[i] = 0.299 * data[4 * i]! + 0.587 * data[4 * i + 1]! + 0.114 * data[4 * i + 2]!;
  return laplacianVariance(grey, side, side);
}
