/**
 * captureLiveness: the advanced-liveness capture of the Biostation capture library.
 * Checks the browser, opens the camera (>= 640x480), probes it, guides the person (oval, light),
 * takes a key frame, fetches a one-time challenge from the station and flashes its colours while
 * capturing frames, collects the environment metadata and seals everything to the station's key
 * (payload format v1, docs/liveness-payload.md). The resolved bytes are POSTed as-is to
 * /api/v1/services/liveness/check.
 */
import { automationInfo, navigatorInfo, plain, screenInfo, webglInfo } from './environment.js';
import type { CaptureMetadata } from './metadata.js';
import { integrityProof, packPlaintext, sealPayload, sha256Hex, fromBase64Url, unhex } from './payload.js';
import { LivenessUi, message, type LivenessFeedback, type Locale } from './ui.js';

export const LIBRARY_VERSION = '1.0.0';
export const MIN_WIDTH = 640;
export const MIN_HEIGHT = 480;

export type LivenessCaptureErrorCode = 'INSECURE_CONTEXT' | 'UNSUPPORTED_BROWSER' | 'NO_CAMERA' | 'PERMISSION_DENIED' | 'LOW_RESOLUTION' | 'CHALLENGE_FAILED';

/** A capture that could not be made; `message` is for the person (pt-BR by default). */
export class LivenessCaptureError extends Error {
  constructor(readonly code: LivenessCaptureErrorCode, message: string) {
    super(message);
    this.name = 'LivenessCaptureError';
  }
}

export interface CaptureLivenessOptions {
  /** Station base URL, e.g. "https://station.local:8080" (no trailing slash needed). */
  baseUrl: string;
  /** Bearer token of the application (POST /api/v1/app-credentials/token). */
  token: string;
  /** Element the camera view and the colour challenge are drawn in (default: a full-page layer on document.body). */
  container?: HTMLElement;
  /** Language of the guidance and errors (default 'pt-BR'). */
  locale?: Locale;
  /** Called with each guidance step and problem (e.g. too dark), for the host page's own UI. */
  onFeedback?: (feedback: LivenessFeedback) => void;
}

interface ChallengeResponse {
  format_version: number;
  nonce: string;
  colours: Array<{ name: string; rgb: [number, number, number]; duration_ms: number }>;
  key: { kid: string; public_key: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The capture environment the spec requires: HTTPS (or localhost), MediaStream, WebAssembly, WebGL. */
export function checkRequirements(locale: Locale = 'pt-BR'): void {
  const local = ['localhost', '127.0.0.1', '[::1]'].includes(location.hostname);
  if (!(window.isSecureContext && (location.protocol === 'https:' || local))) throw new LivenessCaptureError('INSECURE_CONTEXT', message('insecure', locale));
  if (!navigator.mediaDevices?.getUserMedia) throw new LivenessCaptureError('UNSUPPORTED_BROWSER', message('no-mediastream', locale));
  if (typeof WebAssembly !== 'object') throw new LivenessCaptureError('UNSUPPORTED_BROWSER', message('no-wasm', locale));
  const canvas = document.createElement('canvas');
  if (!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'))) throw new LivenessCaptureError('UNSUPPORTED_BROWSER', message('no-webgl', locale));
}

async function openCamera(video: HTMLVideoElement, locale: Locale): Promise<MediaStream> {
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ audio: false, video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } } });
  } catch (e) {
    const name = (e as DOMException).name;
    if (name === 'NotAllowedError') throw new LivenessCaptureError('PERMISSION_DENIED', message('permission', locale));
    if (name === 'OverconstrainedError') throw new LivenessCaptureError('LOW_RESOLUTION', message('low-resolution', locale));
    throw new LivenessCaptureError('NO_CAMERA', message('no-camera', locale));
  }
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play();
  for (let i = 0; i < 100 && video.videoWidth === 0; i++) await sleep(30);
  if (video.videoWidth < MIN_WIDTH || video.videoHeight < MIN_HEIGHT) {
    stream.getTracks().forEach((t) => t.stop());
    throw new LivenessCaptureError('LOW_RESOLUTION', message('low-resolution', locale));
  }
  return stream;
}

/** Calls `fn` for each new video frame (requestVideoFrameCallback where available, else animation frames). */
function onFrames(video: HTMLVideoElement, fn: (t: number) => void): { stop(): void; source: 'rvfc' | 'raf' } {
  let on = true;
  if ('requestVideoFrameCallback' in video) {
    const step = (_now: number, meta: VideoFrameCallbackMetadata) => {
      if (!on) return;
      fn(meta.captureTime ?? meta.expectedDisplayTime);
      video.requestVideoFrameCallback(step);
    };
    video.requestVideoFrameCallback(step);
    return { stop: () => (on = false), source: 'rvfc' };
  }
  const step = (t: number) => {
    if (!on) return;
    fn(t);
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
  return { stop: () => (on = false), source: 'raf' };
}

const nextFrame = (video: HTMLVideoElement, timeoutMs = 1000) =>
  new Promise<void>((resolve) => {
    const h = onFrames(video, () => {
      h.stop();
      resolve();
    });
    setTimeout(() => {
      h.stop();
      resolve();
    }, timeoutMs);
  });

/** Asks the track for other resolutions and records what it reports, what the frames are and how long it took. */
async function probeCamera(track: MediaStreamTrack, video: HTMLVideoElement): Promise<CaptureMetadata['camera']['probes']> {
  const asks = [
    { width: 320, height: 240, frameRate: 15 },
    { width: 640, height: 480, frameRate: 30 },
  ];
  const out: CaptureMetadata['camera']['probes'] = [];
  for (const asked of asks) {
    const t0 = performance.now();
    let ok = true;
    try {
      await track.applyConstraints({ width: { exact: asked.width }, height: { exact: asked.height }, frameRate: { ideal: asked.frameRate } });
    } catch {
      ok = false;
    }
    await nextFrame(video);
    await nextFrame(video);
    const s = track.getSettings();
    out.push({ asked, reported: { width: s.width, height: s.height, frameRate: s.frameRate }, frame: { width: video.videoWidth, height: video.videoHeight }, ms: Math.round(performance.now() - t0), ok });
  }
  try {
    await track.applyConstraints({ width: { min: MIN_WIDTH, ideal: 1280 }, height: { min: MIN_HEIGHT, ideal: 720 } });
  } catch {
    await track.applyConstraints({});
  }
  await nextFrame(video);
  await nextFrame(video);
  return out;
}

function snapshot(video: HTMLVideoElement): HTMLCanvasElement {
  const c = document.createElement('canvas');
  c.width = video.videoWidth;
  c.height = video.videoHeight;
  c.getContext('2d')!.drawImage(video, 0, 0);
  return c;
}

const toJpeg = (c: HTMLCanvasElement) =>
  new Promise<Uint8Array>((resolve, reject) =>
    c.toBlob((b) => (b ? b.arrayBuffer().then((a) => resolve(new Uint8Array(a)), reject) : reject(new Error('toBlob failed'))), 'image/jpeg', 0.9),
  );

function lumaOf(c: HTMLCanvasElement): number {
  const s = document.createElement('canvas');
  s.width = 64;
  s.height = 48;
  const ctx = s.getContext('2d')!;
  ctx.drawImage(c, 0, 0, 64, 48);
  const d = ctx.getImageData(16, 8, 32, 32).data;
  let y = 0;
  for (let i = 0; i < d.length; i += 4) y += 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
  return y / (d.length / 4);
}

/** The library's own code and its SHA-256 (the build hash the station checks). */
async function selfHash(): Promise<{ hash: string; url: string }> {
  const url = import.meta.url;
  try {
    const res = await fetch(url, { cache: 'force-cache' });
    if (!res.ok) throw new Error(String(res.status));
    return { hash: await sha256Hex(new Uint8Array(await res.arrayBuffer())), url };
  } catch {
    // Code that cannot be read back (file: pages, blocked fetch) has no provable build: the hash of
    // nothing, which the station answers with SDK_INTEGRITY_VIOLATION.
    return { hash: await sha256Hex(new Uint8Array(0)), url };
  }
}

/**
 * Runs the advanced-liveness capture.
 * @returns the encrypted payload (format v1) to POST as application/octet-stream.
 * @throws LivenessCaptureError INSECURE_CONTEXT, UNSUPPORTED_BROWSER, NO_CAMERA, PERMISSION_DENIED,
 *   LOW_RESOLUTION ("Resolução da câmera muito baixa"), CHALLENGE_FAILED (station unreachable or token refused).
 */
export async function captureLiveness(options: CaptureLivenessOptions): Promise<Uint8Array> {
  const locale = options.locale ?? 'pt-BR';
  const base = options.baseUrl.replace(/\/+$/, '');
  checkRequirements(locale);
  const ui = new LivenessUi(options.container, locale, options.onFeedback);
  let stream: MediaStream | undefined;
  try {
    const build = selfHash();
    stream = await openCamera(ui.video, locale);
    const track = stream.getVideoTracks()[0];
    const probes = await probeCamera(track, ui.video);
    if (ui.video.videoWidth < MIN_WIDTH || ui.video.videoHeight < MIN_HEIGHT) throw new LivenessCaptureError('LOW_RESOLUTION', message('low-resolution', locale));
    const devices = await navigator.mediaDevices.enumerateDevices();

    // Guidance: the oval, then light. A client face detector is not part of v1: the station's face checks answer precisely.
    ui.feedback('position');
    await sleep(800);
    let key = snapshot(ui.video);
    for (let i = 0; i < 10; i++) {
      const y = lumaOf(key);
      if (y >= 50 && y <= 215) break;
      ui.feedback(y < 50 ? 'too-dark' : 'too-bright');
      await sleep(500);
      key = snapshot(ui.video);
    }

    const res = await fetch(`${base}/api/v1/services/liveness/challenge`, { method: 'POST', headers: { authorization: `Bearer ${options.token}` } }).catch(() => null);
    if (!res?.ok) throw new LivenessCaptureError('CHALLENGE_FAILED', message('challenge', locale));
    const challenge = (await res.json()) as ChallengeResponse;

    ui.feedback('hold-still');
    await sleep(300);
    key = snapshot(ui.video);
    const keyT = performance.now();

    // The colour sequence: frames are taken at most every 40 ms while each colour is on screen.
    const frames: Array<{ canvas: HTMLCanvasElement; t: number }> = [];
    const stamps: number[] = [];
    let start = 0;
    let last = -Infinity;
    // t: the frame's capture time (requestVideoFrameCallback's captureTime, else its display time), performance clock.
    const grab = onFrames(ui.video, (t) => {
      stamps.push(t);
      if (start === 0 || t - last < 40) return;
      last = t;
      frames.push({ canvas: snapshot(ui.video), t: t - start });
    });
    const startedAt = Date.now();
    const shown: number[] = [];
    for (const colour of challenge.colours) {
      await ui.showColour(colour.rgb);
      const now = performance.now();
      if (start === 0) start = now;
      shown.push(Math.round((now - start) * 10) / 10);
      await sleep(colour.duration_ms - (performance.now() - now));
    }
    const endedAt = Date.now();
    grab.stop();
    ui.clearColour();
    ui.feedback('sending');

    const intervals = stamps.slice(1).map((t, i) => t - stamps[i]).filter((d) => d > 0);
    const mean = intervals.reduce((a, b) => a + b, 0) / (intervals.length || 1);
    const jitter = Math.sqrt(intervals.reduce((a, b) => a + (b - mean) ** 2, 0) / (intervals.length || 1));
    const jpegs = [await toJpeg(key), ...(await Promise.all(frames.map((f) => toJpeg(f.canvas))))];
    const { hash, url } = await build;
    const metadata: CaptureMetadata = {
      v: 1,
      challenge: { nonce: challenge.nonce, started_at: startedAt, ended_at: endedAt, shown_ms: shown },
      frames: [
        { role: 'key', t_ms: Math.round(keyT - start), width: key.width, height: key.height },
        ...frames.map((f) => ({ role: 'challenge' as const, t_ms: Math.round(f.t * 10) / 10, width: f.canvas.width, height: f.canvas.height })),
      ],
      camera: {
        label: track.label,
        device_count: devices.filter((d) => d.kind === 'videoinput').length,
        labels: devices.map((d) => d.label).filter((l) => l !== ''),
        settings: plain(track.getSettings()) ?? {},
        capabilities: plain(track.getCapabilities?.()),
        probes,
      },
      timing: { frame_count: stamps.length, mean_interval_ms: Math.round(mean * 100) / 100, jitter_ms: Math.round(jitter * 100) / 100, source: grab.source },
      webgl: webglInfo(),
      automation: await automationInfo(),
      navigator: navigatorInfo(),
      screen: screenInfo(),
      page: { origin: location.origin, secure_context: window.isSecureContext },
      sdk: { version: LIBRARY_VERSION, build_hash: hash, proof: await integrityProof(hash, challenge.nonce), source_url: url },
    };
    return await sealPayload(packPlaintext({ metadata, frames: jpegs }), fromBase64Url(challenge.key.public_key), unhex(challenge.key.kid));
  } finally {
    stream?.getTracks().forEach((t) => t.stop());
    ui.close();
  }
}
