/**
 * Reproducible presentation-attack and bona fide sets for `npm run bench:liveness`, simulated from the
 * real face photos of lfw-dev (nothing is written to disk; every sample is a function of its seed).
 *
 * Split: by identity (FNV-1a hash of the person's name): even -> 'tune' (fusion fitted and threshold
 * chosen there), odd -> 'heldout' (never looked at while tuning). Every sample's parameters are drawn
 * from a mulberry32 generator seeded by (split, index, type).
 *
 * Frames are 400 x 400 "camera" captures; every sample goes through the same camera model: defocus
 * (Gaussian blur), exposure/gamma, a Bayer mosaic with sensor noise, demosaicing, JPEG. Media are drawn
 * at their physical scale and integrated over each frame pixel (media.ts: the scales and their sources).
 * What is simulated:
 * - bona fide 'live-camera': the photo itself as the scene (zoom 1.6-2.0x, random crop), camera model
 *   drawn as for the attacks, plus a low-light share (dark, noisy);
 * - 'print': the photo laser-printed 8-13 cm wide (CMYK AM halftone of 150-200 lpi at 15/75/0/45
 *   degrees, ink gamut, paper white and 0.5 mm paper mottle, white margin), held in front of a blurred
 *   scene with perspective (+-8 deg rotation, keystone), the paper edge in view, sometimes glare: the
 *   halftone period is about 0.3-0.9 frame px, i.e. not resolved, seen as aliasing;
 * - 'print-closeup': the same print filling the frame, no edge in view (period about 0.5-1.3 frame px);
 * - 'screen': the photo on a phone, a tablet or a monitor (RGB stripe subpixels, row gaps, emissive
 *   brightness and a blue white point; pixel pitch from the device's density), black bezel in view,
 *   perspective, glare stripe; moiré from the pitch beating with the camera's pixels;
 * - 'screen-closeup': the same screen filling the frame, no bezel in view (a monitor close up: the
 *   pitch reaches 1-2.4 frame px and the stripes start to be resolved);
 * - 'cutout': a printed face cut out as an ellipse (paper mask) pasted over another person's face in a
 *   bona fide frame (halftone, flat, no border).
 * What it cannot show: real paper and ink optics (inkjet prints use finer stochastic screens, not
 * modelled), real screen emission, angle-dependent contrast and refresh, a real lens's aberrations and
 * a real sensor's noise, 3-D masks, or attacks built to defeat these very signals. See README.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { composite, printMedium, screenMedium, type Medium } from './media.js';

export const FRAME = 400;
export const ATTACK_TYPES = ['print', 'print-closeup', 'screen', 'screen-closeup', 'cutout'] as const;
export type AttackType = (typeof ATTACK_TYPES)[number];
export type SampleType = AttackType | 'live-camera';
/** 'fresh', 'fresh2': the second and third untouched parts (see generateSet). */
export type Split = 'tune' | 'heldout' | 'fresh' | 'fresh2';

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

/** Bayer RGGB: the colour a sensor pixel records (0 R, 1 G, 2 B). */
const bayer = (x: number, y: number): number => ((y & 1) === 0 ? ((x & 1) === 0 ? 0 : 1) : (x & 1) === 0 ? 1 : 2);

/**
 * The camera: defocus (Gaussian blur), exposure/gamma, a Bayer RGGB mosaic with sensor noise on it,
 * bilinear demosaicing (each missing colour the mean of the 3 x 3 neighbours that recorded it), JPEG.
 */
async function camera(img: Raster, rnd: () => number, lowLight: boolean): Promise<Uint8Array> {
  const c = drawCamera(rnd, lowLight);
  let p = sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
  if (c.blurSigma >= 0.3) p = p.blur(c.blurSigma);
  const data = new Uint8Array(await p.raw().toBuffer());
  const W = img.width, H = img.height;
  const rng = mulberry32(c.noiseSeed);
  const mosaic = new Float32Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const v = data[(y * W + x) * 3 + bayer(x, y)];
      // approximately Gaussian noise: sum of three uniforms (std = c.noise)
      mosaic[y * W + x] = 255 * Math.pow(Math.min(1, (v / 255) * c.gain), c.gamma) + (rng() + rng() + rng() - 1.5) * 2 * c.noise;
    }
  }
  const out = new Uint8Array(W * H * 3);
  const sum = [0, 0, 0], n = [0, 0, 0];
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      sum[0] = sum[1] = sum[2] = n[0] = n[1] = n[2] = 0;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= H) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= W) continue;
          const k = bayer(xx, yy);
          sum[k] += mosaic[yy * W + xx];
          n[k]++;
        }
      }
      const own = bayer(x, y);
      const o = (y * W + x) * 3;
      for (let k = 0; k < 3; k++) out[o + k] = clamp8(Math.round(k === own ? mosaic[y * W + x] : sum[k] / n[k]));
    }
  }
  const jpeg = await sharp(out, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: c.quality }).toBuffer();
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

/** Quad of a medium of aspect w/h whose full width spans `side` frame px, centred near (cx, cy), with perspective. */
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

/** The cut-out: an ellipse around the face of an LFW photo (u, v: 0..1 across the print). */
const ELLIPSE = (u: number, v: number): number => (((u - 0.5) / 0.21) ** 2 + ((v - 0.52) / 0.27) ** 2 <= 1 ? 1 : 0);

/**
 * A printed photo framed so that its photo part spans `photoSide` frame px: an AM halftone of
 * 150-200 lpi, the photo printed 8-13 cm wide, paper mottle of 0.5 mm (scales: media.ts).
 */
function printAt(photo: Raster, photoSide: number, margin: number, rnd: () => number): Medium {
  const lpi = 150 + rnd() * 50;
  const widthMm = 80 + rnd() * 50;
  const pxPerMm = photo.width / widthMm; // photo px per mm of paper
  return printMedium(photo, (25.4 / lpi) * pxPerMm, margin, 0.5 * pxPerMm, rnd);
}

/**
 * One sample of `type` from `photo` (the attacker's source), `other` (another photo: the scene, or
 * the wearer for 'cutout'), fully determined by `seed`. Media at their physical scale (media.ts).
 */
export async function makeSample(type: SampleType, photo: Raster, other: Raster, seed: number): Promise<Uint8Array> {
  const rnd = mulberry32(seed);
  if (type === 'live-camera') return camera(await liveFrame(photo, rnd), rnd, rnd() < 0.2);
  if (type === 'cutout') {
    const wearer = await liveFrame(other, rnd);
    // LFW faces sit at the centre of the 250 px photo, about 0.28-0.72 of its width
    const side = FRAME * (0.9 + rnd() * 0.3);
    const print = printAt(photo, side, 0, rnd);
    const c = quad(print.width, print.height, side, FRAME / 2 + (rnd() - 0.5) * 30, FRAME / 2 + (rnd() - 0.5) * 30, rnd);
    const img = composite(wearer, print, c, ELLIPSE);
    if (rnd() < 0.3) addGlare(img, rnd);
    return camera(img, rnd, rnd() < 0.1);
  }
  const closeup = type.endsWith('closeup');
  const scene = await sceneFrom(other, rnd);
  // photo part 1.25-1.5x the frame for close-ups (no edge in view), 0.8-1.05x otherwise (edge partly in view)
  const photoSide = FRAME * (closeup ? 1.25 + rnd() * 0.25 : 0.8 + rnd() * 0.25);
  let medium: Medium;
  let photoWidth: number;
  if (type.startsWith('print')) {
    const margin = closeup ? 0.02 : 0.06 + rnd() * 0.1;
    medium = printAt(photo, photoSide, margin, rnd);
    photoWidth = photo.width;
  } else {
    // a phone (400-460 ppi, photo 5-7 cm wide), a tablet (220-265 ppi, 10-16 cm) or a monitor showing the
    // 250 px photo at 100-200 % (90-110 ppi): device px across the photo
    const device = Math.floor(rnd() * 3);
    const deviceWidth = device === 0 ? ((50 + rnd() * 20) * (400 + rnd() * 60)) / 25.4 : device === 1 ? ((100 + rnd() * 60) * (220 + rnd() * 45)) / 25.4 : photo.width * (1 + rnd());
    medium = screenMedium(photo, deviceWidth, deviceWidth * (closeup ? 0.01 : 0.04 + rnd() * 0.08), rnd);
    photoWidth = deviceWidth;
  }
  const side = (photoSide * medium.width) / photoWidth;
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
 * people), seeds from `fresh/${i}/${type}`, scene and cut-out wearer from the fresh photo list too;
 * 'fresh2': a third untouched part, added after 'fresh' had been printed once and the network's views
 * chosen (issue #20): the held-out identities' photos a quarter of the way between heldout's
 * (i * step + step / 4: neither heldout's nor fresh's people while step >= 4), seeds from
 * `fresh2/${i}/${type}`.
 */
/**
 * Index of the i-th of n photos of a part in its identity list of `length` photos: tune and heldout at
 * i * step, fresh at i * step + step / 2, fresh2 at i * step + step / 4 (step = length / n).
 */
export function partPhotoIndex(split: Split, i: number, n: number, length: number): number {
  const step = length / n;
  const offset = split === 'fresh' ? step / 2 : split === 'fresh2' ? step / 4 : 0;
  return Math.floor(i * step + offset) % length;
}

export async function* generateSet(
  lfwImages: string,
  perSplit: number,
  types: readonly SampleType[] = ['live-camera', ...ATTACK_TYPES],
  parts: readonly Split[] = ['tune', 'heldout'],
): AsyncGenerator<Sample> {
  const photos = sourcePhotos(lfwImages);
  for (const split of parts) {
    const list = photos[split === 'fresh' || split === 'fresh2' ? 'heldout' : split];
    const n = Math.min(perSplit, list.length);
    const at = (i: number): number => partPhotoIndex(split, i, n, list.length);
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
