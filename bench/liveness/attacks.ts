/**
 * Reproducible presentation-attack and bona fide sets for `npm run bench:liveness`, simulated from the
 * real face photos of lfw-dev (nothing is written to disk; every sample is a function of its seed).
 *
 * Split: by identity (FNV-1a hash of the person's name): even -> 'tune' (fusion fitted and threshold
 * chosen there), odd -> 'heldout' (never looked at while tuning). Every sample's parameters are drawn
 * from a mulberry32 generator seeded by (split, index, type).
 *
 * Frames are 400 x 400 "camera" captures; every sample goes through the same camera model: defocus
 * (Gaussian blur), sensor noise, exposure/gamma, JPEG. What is simulated:
 * - bona fide 'live-camera': the photo itself as the scene (zoom 1.6-2.0x, random crop), camera model
 *   drawn as for the attacks, plus a low-light share (dark, noisy);
 * - 'print': the photo printed (CMYK halftone screen of period 2-3.5 px of a 3x (cut-out: 2x) enlargement at 15/75/0/45 degrees, ink gamut,
 *   paper texture, white margin), held in front of a blurred scene with perspective (+-8 deg
 *   rotation, keystone), the paper edge in view, sometimes glare;
 * - 'print-closeup': the same print filling the frame, no edge in view;
 * - 'screen': the photo on an LCD (RGB stripe subpixels, 3-6 device px per photo px, pixel gaps,
 *   emissive brightness and a blue white point), black bezel in view, perspective, moiré from
 *   resampling at the camera, glare stripe;
 * - 'screen-closeup': the same screen filling the frame, no bezel in view;
 * - 'cutout': a printed face cut out as an ellipse (paper mask) pasted over another person's face in a
 *   bona fide frame (halftone, flat, no border).
 * What it cannot show: real paper and ink optics, real screen emission and moiré with a real lens and
 * sensor (demosaicing), 3-D masks, or attacks built to defeat these very signals. See README.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

export const FRAME = 400;
export const ATTACK_TYPES = ['print', 'print-closeup', 'screen', 'screen-closeup', 'cutout'] as const;
export type AttackType = (typeof ATTACK_TYPES)[number];
export type SampleType = AttackType | 'live-camera';
/** 'fresh': the second untouched part (see generateSet). */
export type Split = 'tune' | 'heldout' | 'fresh';

export interface Raster {
  width: number;
  height: number;
  data: Uint8Array;
}

export interface Sample {
  id: string;
  split: Split;
  type: SampleType;
  bonaFide: boolean;
  /** Source photo (lfw-dev file name). */
  source: string;
  /** The capture, JPEG. */
  jpeg: Uint8Array;
}

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

const personOf = (file: string): string => file.replace(/_\d{4}\.jpg$/, '');
const splitOf = (file: string): 'tune' | 'heldout' => (fnv1a(personOf(file)) % 2 === 0 ? 'tune' : 'heldout');

/** One photo per person, identity-disjoint splits, stable order. */
export function sourcePhotos(lfwImages: string): Record<'tune' | 'heldout', string[]> {
  const files = readdirSync(lfwImages).filter((f) => f.endsWith('.jpg')).sort();
  const seen = new Set<string>();
  const out: Record<'tune' | 'heldout', string[]> = { tune: [], heldout: [] };
  for (const f of files) {
    const p = personOf(f);
    if (seen.has(p)) continue;
    seen.add(p);
    out[splitOf(f)].push(f);
  }
  return out;
}

async function decode(file: string): Promise<Raster> {
  const { data, info } = await sharp(readFileSync(file)).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

async function resize(img: Raster, w: number, h: number, blur = 0): Promise<Raster> {
  let p = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).resize(w, h, { fit: 'fill', kernel: 'lanczos3' });
  if (blur >= 0.3) p = p.blur(blur);
  const data = await p.raw().toBuffer();
  return { width: w, height: h, data: new Uint8Array(data.buffer, data.byteOffset, data.length) };
}

const clamp8 = (v: number): number => (v < 0 ? 0 : v > 255 ? 255 : v);

function bilinear(img: Raster, x: number, y: number, out: number[]): boolean {
  if (x < 0 || y < 0 || x > img.width - 1 || y > img.height - 1) return false;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, img.width - 1);
  const y1 = Math.min(y0 + 1, img.height - 1);
  const fx = x - x0;
  const fy = y - y0;
  for (let c = 0; c < 3; c++) {
    const a = img.data[(y0 * img.width + x0) * 3 + c];
    const b = img.data[(y0 * img.width + x1) * 3 + c];
    const d = img.data[(y1 * img.width + x0) * 3 + c];
    const e = img.data[(y1 * img.width + x1) * 3 + c];
    out[c] = (a + (b - a) * fx) * (1 - fy) + (d + (e - d) * fx) * fy;
  }
  return true;
}

/** Homography (3x3, row-major) taking the 4 points `from` to `to` (direct linear solve). */
function homography(from: number[][], to: number[][]): number[] {
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

/**
 * Places `medium` (its full extent) into `scene` at the quad `corners` (frame px, clockwise from
 * top-left); supersampled 2x2 to mimic a lens integrating the medium's fine structure.
 */
function composite(scene: Raster, medium: Raster, corners: number[][], mask?: (u: number, v: number) => number): Raster {
  const Hm = homography(corners, [[0, 0], [medium.width - 1, 0], [medium.width - 1, medium.height - 1], [0, medium.height - 1]]);
  const out = new Uint8Array(scene.data);
  const px = [0, 0, 0];
  for (let y = 0; y < scene.height; y++) {
    for (let x = 0; x < scene.width; x++) {
      let r = 0, g = 0, b = 0, w = 0;
      for (const [ox, oy] of [[-0.25, -0.25], [0.25, -0.25], [-0.25, 0.25], [0.25, 0.25]]) {
        const X = x + ox, Y = y + oy;
        const d = Hm[6] * X + Hm[7] * Y + Hm[8];
        const u = (Hm[0] * X + Hm[1] * Y + Hm[2]) / d;
        const v = (Hm[3] * X + Hm[4] * Y + Hm[5]) / d;
        if (!bilinear(medium, u, v, px)) continue;
        const a = mask ? mask(u / medium.width, v / medium.height) : 1;
        if (a <= 0) continue;
        r += px[0] * a; g += px[1] * a; b += px[2] * a; w += a;
      }
      if (w === 0) continue;
      const o = (y * scene.width + x) * 3;
      const k = w / 4;
      out[o] = clamp8(out[o] * (1 - k) + r / 4);
      out[o + 1] = clamp8(out[o + 1] * (1 - k) + g / 4);
      out[o + 2] = clamp8(out[o + 2] * (1 - k) + b / 4);
    }
  }
  return { width: scene.width, height: scene.height, data: out };
}

/** CMYK amplitude-modulated halftone of `img` (period in px), ink gamut and paper texture, white margin. */
function printMedium(img: Raster, period: number, margin: number, rnd: () => number): Raster {
  const m = Math.round(img.width * margin);
  const W = img.width + 2 * m;
  const H = img.height + 2 * m;
  const out = new Uint8Array(W * H * 3);
  const angles = [15, 75, 0, 45].map((a) => ((a + rnd() * 4) * Math.PI) / 180);
  const paper = [245 + rnd() * 8, 243 + rnd() * 8, 235 + rnd() * 10];
  const ink = [[0, 160, 230], [220, 0, 130], [255, 230, 0], [25, 25, 30]]; // C, M, Y, K as RGB absorption targets
  const ca = angles.map(Math.cos);
  const sa = angles.map(Math.sin);
  const COS_N = 4096;
  const cosTable = new Float32Array(COS_N);
  for (let i = 0; i < COS_N; i++) cosTable[i] = Math.cos((2 * Math.PI * i) / COS_N);
  const cos2pi = (t: number): number => cosTable[((Math.floor(t * COS_N) % COS_N) + COS_N) % COS_N];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const grain = (rnd() - 0.5) * 10;
      const ix = x - m, iy = y - m;
      if (ix < 0 || iy < 0 || ix >= img.width || iy >= img.height) {
        for (let c = 0; c < 3; c++) out[o + c] = clamp8(paper[c] + grain);
        continue;
      }
      const s = (iy * img.width + ix) * 3;
      const R = img.data[s] / 255, G = img.data[s + 1] / 255, B = img.data[s + 2] / 255;
      const K = 1 - Math.max(R, G, B);
      const den = 1 - K + 1e-6;
      const cov = [(1 - R - K) / den, (1 - G - K) / den, (1 - B - K) / den, K];
      let r = paper[0], g = paper[1], b = paper[2];
      for (let k = 0; k < 4; k++) {
        const u = (x * ca[k] + y * sa[k]) / period;
        const v = (-x * sa[k] + y * ca[k]) / period;
        // dot function in -1..1; inked where it is below the coverage threshold
        const spot = (cos2pi(u) + cos2pi(v)) / 2;
        if (spot < 1 - 2 * Math.min(1, cov[k] * 1.05)) continue;
        const t = ink[k];
        r *= (t[0] + 25) / 280; g *= (t[1] + 25) / 280; b *= (t[2] + 25) / 280;
      }
      out[o] = clamp8(r + grain);
      out[o + 1] = clamp8(g + grain);
      out[o + 2] = clamp8(b + grain);
    }
  }
  return { width: W, height: H, data: out };
}

/** LCD rendering: each photo pixel k x k device px as R|G|B stripes with dark gaps; bezel around. */
function screenMedium(img: Raster, k: number, bezel: number, rnd: () => number): Raster {
  const b = Math.round(img.width * k * bezel);
  const W = img.width * k + 2 * b;
  const H = img.height * k + 2 * b;
  const out = new Uint8Array(W * H * 3);
  const gain = 1.05 + rnd() * 0.2;
  const white = [0.92, 0.97, 1.0];
  const bezelGrey = 10 + rnd() * 25;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = (y * W + x) * 3;
      const ix = x - b, iy = y - b;
      if (ix < 0 || iy < 0 || ix >= img.width * k || iy >= img.height * k) {
        out[o] = out[o + 1] = out[o + 2] = bezelGrey;
        continue;
      }
      const s = (Math.floor(iy / k) * img.width + Math.floor(ix / k)) * 3;
      const sub = Math.floor(((ix % k) * 3) / k); // which stripe
      const gapY = iy % k === k - 1 ? 0.55 : 1;
      for (let c = 0; c < 3; c++) {
        const lit = c === sub ? 1 : 0.12;
        out[o + c] = clamp8(img.data[s + c] * 2.2 * lit * gapY * gain * white[c] + 6);
      }
    }
  }
  return { width: W, height: H, data: out };
}

/** Glare: an additive soft ellipse or stripe of near-white light. */
function addGlare(img: Raster, rnd: () => number): void {
  const cx = rnd() * img.width, cy = rnd() * img.height;
  const rx = (0.1 + rnd() * 0.25) * img.width, ry = (0.05 + rnd() * 0.15) * img.height;
  const a = rnd() * Math.PI, amp = 80 + rnd() * 140;
  const ca = Math.cos(a), sa = Math.sin(a);
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const dx = x - cx, dy = y - cy;
      const u = (dx * ca + dy * sa) / rx, v = (-dx * sa + dy * ca) / ry;
      const w = Math.exp(-(u * u + v * v));
      if (w < 0.01) continue;
      const o = (y * img.width + x) * 3;
      for (let c = 0; c < 3; c++) img.data[o + c] = clamp8(img.data[o + c] + amp * w);
    }
  }
}

/** One capture's camera parameters (drawn by `drawCamera`, in this order, from the sample's generator). */
export interface CameraRecipe {
  lowLight: boolean;
  /** Gaussian defocus sigma, frame px (0 = none). */
  blurSigma: number;
  /** Exposure gain (low light 0.35-0.6, else 0.85-1.15). */
  gain: number;
  gamma: number;
  /** Sensor noise amplitude (about the std of the added noise), 0..255 units, before JPEG. */
  noise: number;
  noiseSeed: number;
  /** JPEG quality. */
  quality: number;
}

function drawCamera(rnd: () => number, lowLight: boolean): CameraRecipe {
  const blurSigma = rnd() < 0.3 ? 0 : 0.4 + rnd() * 1.2;
  const gain = lowLight ? 0.35 + rnd() * 0.25 : 0.85 + rnd() * 0.3;
  const gamma = 0.85 + rnd() * 0.3;
  const noise = lowLight ? 4 + rnd() * 6 : rnd() * 4;
  const noiseSeed = Math.floor(rnd() * 2 ** 31);
  const quality = Math.round(35 + rnd() * 55);
  return { lowLight, blurSigma, gain, gamma, noise, noiseSeed, quality };
}

/** The camera: defocus, exposure/gamma, noise, JPEG. */
async function camera(img: Raster, rnd: () => number, lowLight: boolean): Promise<Uint8Array> {
  const c = drawCamera(rnd, lowLight);
  let p = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  if (c.blurSigma >= 0.3) p = p.blur(c.blurSigma);
  const data = new Uint8Array(await p.raw().toBuffer());
  const rng = mulberry32(c.noiseSeed);
  for (let i = 0; i < data.length; i++) {
    const g = 255 * Math.pow(Math.min(1, (data[i] / 255) * c.gain), c.gamma);
    // approximately Gaussian noise: sum of three uniforms
    const n = (rng() + rng() + rng() - 1.5) * 2 * c.noise;
    data[i] = clamp8(Math.round(g + n));
  }
  const jpeg = await sharp(data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality: c.quality }).toBuffer();
  return new Uint8Array(jpeg);
}

/**
 * The camera parameters of the 'live-camera' sample of `seed` (the same draws as makeSample: three for
 * the frame, one for low light, then drawCamera), for the bench's breakdown of bona fide errors.
 */
export function liveCameraRecipe(seed: number): CameraRecipe {
  const rnd = mulberry32(seed);
  rnd();
  rnd();
  rnd();
  return drawCamera(rnd, rnd() < 0.2);
}

/** A blurred scene from another photo (the room behind the medium). */
const sceneFrom = (other: Raster, rnd: () => number): Promise<Raster> => resize(other, FRAME, FRAME, 4 + rnd() * 6);

/** The bona fide frame of a photo: zoomed into the photo so the face is 150-200 px, no border. */
async function liveFrame(photo: Raster, rnd: () => number): Promise<Raster> {
  const zoom = 1.6 + rnd() * 0.4;
  const big = await resize(photo, Math.round(photo.width * zoom), Math.round(photo.height * zoom), 0.5);
  const x0 = Math.floor(rnd() * (big.width - FRAME + 1));
  const y0 = Math.floor(rnd() * (big.height - FRAME + 1));
  const out = new Uint8Array(FRAME * FRAME * 3);
  for (let y = 0; y < FRAME; y++) out.set(big.data.subarray(((y + y0) * big.width + x0) * 3, ((y + y0) * big.width + x0 + FRAME) * 3), y * FRAME * 3);
  return { width: FRAME, height: FRAME, data: out };
}

/** Quad of a medium of aspect w/h whose photo part spans `side` px, centred near (cx, cy), with perspective. */
function quad(w: number, h: number, side: number, cx: number, cy: number, rnd: () => number): number[][] {
  const rot = ((rnd() - 0.5) * 16 * Math.PI) / 180;
  const kx = (rnd() - 0.5) * 0.16, ky = (rnd() - 0.5) * 0.16; // keystone
  const sw = side, sh = (side * h) / w;
  const pts = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]].map(([u, v]) => {
    const px = u * sw * (1 + ky * v * 2), py = v * sh * (1 + kx * u * 2);
    return [cx + px * Math.cos(rot) - py * Math.sin(rot), cy + px * Math.sin(rot) + py * Math.cos(rot)];
  });
  return pts;
}

/**
 * One sample of `type` from `photo` (the attacker's source), `other` (another photo: the scene, or
 * the wearer for 'cutout'), fully determined by `seed`.
 */
export async function makeSample(type: SampleType, photo: Raster, other: Raster, seed: number): Promise<Uint8Array> {
  const rnd = mulberry32(seed);
  if (type === 'live-camera') return camera(await liveFrame(photo, rnd), rnd, rnd() < 0.2);
  if (type === 'cutout') {
    const wearer = await liveFrame(other, rnd);
    const up = await resize(photo, photo.width * 2, photo.height * 2, 0.4);
    const print = printMedium(up, 2 + rnd() * 1.5, 0, rnd);
    // LFW faces sit at the centre of the 250 px photo, about 0.28-0.72 of its width
    const side = FRAME * (0.9 + rnd() * 0.3);
    const c = quad(print.width, print.height, side, FRAME / 2 + (rnd() - 0.5) * 30, FRAME / 2 + (rnd() - 0.5) * 30, rnd);
    const ell = (u: number, v: number): number => {
      const d = ((u - 0.5) / 0.21) ** 2 + ((v - 0.52) / 0.27) ** 2;
      return d <= 1 ? 1 : 0;
    };
    const img = composite(wearer, print, c, ell);
    if (rnd() < 0.3) addGlare(img, rnd);
    return camera(img, rnd, rnd() < 0.1);
  }
  const closeup = type.endsWith('closeup');
  const scene = await sceneFrom(other, rnd);
  let medium: Raster;
  if (type.startsWith('print')) {
    const up = await resize(photo, photo.width * 3, photo.height * 3, 0.5);
    medium = printMedium(up, 2 + rnd() * 1.5, closeup ? 0.02 : 0.06 + rnd() * 0.1, rnd);
  } else {
    const k = 3 + Math.floor(rnd() * 4);
    const src = await resize(photo, Math.round(photo.width * (1 + rnd() * 0.5)), Math.round(photo.height * (1 + rnd() * 0.5)), 0);
    medium = screenMedium(src, k, closeup ? 0.01 : 0.04 + rnd() * 0.08, rnd);
  }
  // photo part 1.25-1.5x the frame for close-ups (no edge in view), 0.75-1.0x otherwise (edge partly in view)
  const side = FRAME * (closeup ? 1.25 + rnd() * 0.25 : 0.8 + rnd() * 0.25);
  const offset = closeup ? 20 : 60;
  const c = quad(medium.width, medium.height, side, FRAME / 2 + (rnd() - 0.5) * offset, FRAME / 2 + (rnd() - 0.5) * offset, rnd);
  const img = composite(scene, medium, c);
  if (rnd() < (type.startsWith('screen') ? 0.5 : 0.3)) addGlare(img, rnd);
  return camera(img, rnd, rnd() < 0.1);
}

/**
 * The bench set: for each of `perSplit` photos of each part, one bona fide capture and one sample of
 * every attack type (`types`), yielded one at a time.
 *
 * Parts: 'tune' and 'heldout' (the photos at i * step of each identity list, seeds from
 * `${part}/${i}/${type}`); 'fresh': a second untouched part, added after 'heldout' had been looked at
 * while tuning: the held-out identities' photos halfway between heldout's (i * step + step / 2: other
 * people), seeds from `fresh/${i}/${type}`, scene and cut-out wearer from the fresh photo list too.
 */
export async function* generateSet(
  lfwImages: string,
  perSplit: number,
  types: readonly SampleType[] = ['live-camera', ...ATTACK_TYPES],
  parts: readonly Split[] = ['tune', 'heldout'],
): AsyncGenerator<Sample> {
  const photos = sourcePhotos(lfwImages);
  for (const split of parts) {
    const list = photos[split === 'fresh' ? 'heldout' : split];
    const n = Math.min(perSplit, list.length);
    const step = list.length / n;
    const at = (i: number): number => (split === 'fresh' ? Math.floor(i * step + step / 2) : Math.floor(i * step)) % list.length;
    for (let i = 0; i < n; i++) {
      const file = list[at(i)];
      const otherFile = list[(at(i) + Math.floor(list.length / 2)) % list.length];
      const photo = await decode(path.join(lfwImages, file));
      const other = await decode(path.join(lfwImages, otherFile));
      for (const type of types) {
        const seed = fnv1a(`${split}/${i}/${type}`);
        yield { id: `${split}/${i}/${type}`, split, type, bonaFide: type === 'live-camera', source: file, jpeg: await makeSample(type, photo, other, seed) };
      }
    }
  }
}
