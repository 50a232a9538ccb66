/**
 * Builds advanced-liveness payloads directly, with a test key: synthetic 640x480 frames whose
 * "face" region (a fixed box, seen by a fake FaceInspector) reflects a colour sequence, clean
 * metadata, and the client encoder of renderer/capture/liveness/payload.ts (WebCrypto in Node).
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { integrityProof, packPlaintext, sealPayload, unhex } from '../../../renderer/capture/liveness/payload.js';
import type { CaptureMetadata } from '../../../renderer/capture/liveness/metadata.js';
import { ChallengeStore, PALETTE, type Challenge, type ChallengeColour } from '../../../src/liveness/advanced/challenge.js';
import type { FaceInspection, FaceInspector, FaceObservation } from '../../../src/liveness/advanced/face-checks.js';
import { LivenessKeyStore } from '../../../src/liveness/advanced/keys.js';
import { AdvancedLivenessService } from '../../../src/liveness/advanced/service.js';
import type { PassiveFaceLiveness } from '../../../src/liveness/advanced/passive.js';

export const W = 640;
export const H = 480;
export const FACE_BOX = { x: 220, y: 100, width: 200, height: 260 };
export const LIBRARY_CODE = 'export async function captureLiveness() { /* genuine build */ }\n';
export const BUILD_HASH = createHash('sha256').update(LIBRARY_CODE).digest('hex');
export const APP = 'app-1';

/** red, green, blue, yellow at 400 ms each. */
export const COLOURS: ChallengeColour[] = [0, 1, 2, 3].map((index) => ({ index, rgb: PALETTE[index].rgb, durationMs: 400 }));

export class FakeInspector implements FaceInspector {
  faces: FaceObservation[] = [{ box: FACE_BOX, score: 0.9, yawDeg: 3, pitchDeg: -2 }];
  size?: { width: number; height: number };
  async inspect(_jpeg: Uint8Array, size: { width: number; height: number }): Promise<FaceInspection> {
    return { ...(this.size ?? size), faces: this.faces };
  }
}

export interface Rig {
  keys: LivenessKeyStore;
  challenges: ChallengeStore;
  inspector: FakeInspector;
  service: AdvancedLivenessService;
  clock: { now: number };
}

export function rig(passive?: PassiveFaceLiveness): Rig {
  const clock = { now: 1_700_000_000_000 };
  const keys = LivenessKeyStore.ephemeral();
  const challenges = new ChallengeStore({ now: () => clock.now });
  const inspector = new FakeInspector();
  const service = new AdvancedLivenessService({ keys, challenges, builds: { hashes: () => new Set([BUILD_HASH]) }, faces: inspector, passive, now: () => clock.now });
  return { keys, challenges, inspector, service, clock };
}

/** A deterministic pseudo-random generator (frames must differ by sensor-like noise). */
function noise(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return ((s >>> 0) / 0xffffffff) * 2 - 1;
  };
}

export interface FrameOptions {
  /** Colour lighting the face (RGB 0..255), or null for neutral light. */
  light: [number, number, number] | null;
  /** Strength of the reflection, in 0..255 units at full colour. */
  reflection?: number;
  /** Noise amplitude (0 gives pixel copies). */
  noise?: number;
  seed?: number;
  width?: number;
  height?: number;
  /** Render another person's face texture. */
  otherFace?: boolean;
}

const frameCache = new Map<string, Promise<Uint8Array>>();

/** One JPEG frame: grey wall, a skin-coloured face box lit by `light` (memoised: the tests reuse the same frames). */
export function frame(o: FrameOptions): Promise<Uint8Array> {
  const key = JSON.stringify(o);
  let f = frameCache.get(key);
  if (!f) frameCache.set(key, (f = renderFrame(o)));
  return f;
}

async function renderFrame(o: FrameOptions): Promise<Uint8Array> {
  const w = o.width ?? W;
  const h = o.height ?? H;
  const rnd = noise(o.seed ?? 1);
  const amp = o.noise ?? 4;
  const refl = o.reflection ?? 40;
  const data = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const inFace = x >= FACE_BOX.x && x < FACE_BOX.x + FACE_BOX.width && y >= FACE_BOX.y && y < FACE_BOX.y + FACE_BOX.height;
      // The face carries a texture (features), so that frames of the same face correlate and another face does not.
      const tex = inFace ? (o.otherFace ? 18 * Math.sin(y / 6) * Math.cos(x / 11) : 18 * Math.sin(x / 7) * Math.cos(y / 9)) : 0;
      const base = inFace ? [190 + tex, 150 + tex, 125 + tex] : [120, 118, 115];
      const k = inFace ? 1 : 0.2;
      for (let c = 0; c < 3; c++) {
        const lit = o.light ? (refl * k * o.light[c]) / 255 - (refl * k) / 3 : 0;
        data[(y * w + x) * 3 + c] = Math.max(0, Math.min(255, Math.round(base[c] + lit + amp * rnd())));
      }
    }
  }
  return new Uint8Array(await sharp(data, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 92 }).toBuffer());
}

export interface CaptureOptions {
  /** Colours the frames actually reflect (default: the challenge's). */
  reflect?: ChallengeColour[];
  reflection?: number;
  noise?: number;
  /** Noise seed per frame (default: a different seed per frame). */
  seedOf?: (i: number, colour: number) => number;
  metadata?: (m: CaptureMetadata) => void;
  keyFrame?: { width: number; height: number };
  /** Frames every `frameMs` ms through the sequence. */
  frameMs?: number;
  /** Challenge frames show another face than the key frame. */
  otherFace?: boolean;
}

/** Clean metadata for a challenge (an integrated USB camera, Chrome, no automation, genuine build). */
export async function cleanMetadata(c: Challenge, frames: CaptureMetadata['frames']): Promise<CaptureMetadata> {
  const shown: number[] = [];
  let t = 0;
  for (const col of c.colours) {
    shown.push(t);
    t += col.durationMs;
  }
  return {
    v: 1,
    challenge: { nonce: c.nonce, started_at: c.issuedAt + 1000, ended_at: c.issuedAt + 1000 + t, shown_ms: shown },
    frames,
    camera: {
      label: 'Integrated Camera (04f2:b6dd)',
      device_count: 1,
      labels: ['Integrated Camera (04f2:b6dd)'],
      settings: { width: W, height: H, frameRate: 30, deviceId: 'abc' },
      capabilities: { width: { min: 160, max: 1280 }, height: { min: 120, max: 720 } },
      probes: [{ asked: { width: 640, height: 480, frameRate: 30 }, reported: { width: 640, height: 480, frameRate: 30 }, frame: { width: 640, height: 480 }, ms: 120, ok: true }],
    },
    timing: { frame_count: frames.length, mean_interval_ms: 33.4, jitter_ms: 2.1, source: 'rvfc' },
    webgl: { vendor: 'WebKit', renderer: 'WebKit WebGL', unmasked_vendor: 'Intel Inc.', unmasked_renderer: 'Intel(R) UHD Graphics 620' },
    automation: { webdriver: false, cdp_traces: [], cdp_runtime: false, headless_ua: false, native: { getUserMedia: true, enumerateDevices: true, toBlob: true }, botd: { bot: false, kind: null } },
    navigator: {
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36',
      ua_data: { brands: [{ brand: 'Chromium', version: '141' }], mobile: false, platform: 'Linux' },
      languages: ['pt-BR', 'pt'],
      platform: 'Linux x86_64',
      hardware_concurrency: 8,
    },
    screen: { width: 1920, height: 1080, avail_width: 1920, avail_height: 1050, device_pixel_ratio: 1, color_depth: 24 },
    page: { origin: 'https://station.local', secure_context: true },
    sdk: { version: '1.0.0', build_hash: BUILD_HASH, proof: await integrityProof(BUILD_HASH, c.nonce), source_url: 'https://station.local/capture/biostation-capture.js' },
  };
}

/** Renders frames that reflect a challenge and seals them for a station key; returns the payload and the sequence length (ms). */
export async function sealCapture(c: Challenge, key: { publicPoint: Uint8Array; kid: string }, o: CaptureOptions = {}): Promise<{ payload: Uint8Array; totalMs: number }> {
  const reflect = o.reflect ?? c.colours;
  const frameMs = o.frameMs ?? 50;
  const jpegs: Uint8Array[] = [await frame({ light: null, noise: o.noise, seed: 999, ...(o.keyFrame ?? {}) })];
  const meta: CaptureMetadata['frames'] = [{ role: 'key', t_ms: -300, width: o.keyFrame?.width ?? W, height: o.keyFrame?.height ?? H }];
  let start = 0;
  let i = 0;
  for (let k = 0; k < c.colours.length; k++) {
    for (let t = start + 10; t < start + c.colours[k].durationMs; t += frameMs) {
      // Before the reflection settles the face still shows the previous colour.
      const kk = t - start < 60 && k > 0 ? k - 1 : k;
      jpegs.push(await frame({ light: reflect[kk].rgb, reflection: o.reflection, noise: o.noise, seed: o.seedOf ? o.seedOf(i, k) : i + 1, otherFace: o.otherFace }));
      meta.push({ role: 'challenge', t_ms: t, width: W, height: H });
      i++;
    }
    start += c.colours[k].durationMs;
  }
  const m = await cleanMetadata(c, meta);
  o.metadata?.(m);
  const payload = await sealPayload(packPlaintext({ metadata: m, frames: jpegs }), new Uint8Array(key.publicPoint), unhex(key.kid));
  return { payload, totalMs: start };
}

/** Issues a challenge, renders frames that reflect it, seals the payload; advances the clock past the sequence. */
export async function capture(r: Rig, o: CaptureOptions = {}, colours = COLOURS): Promise<{ payload: Uint8Array; challenge: Challenge }> {
  const c = r.challenges.issue(APP, colours);
  const { payload, totalMs } = await sealCapture(c, r.keys.current, o);
  r.clock.now += totalMs + 500;
  return { payload, challenge: c };
}
