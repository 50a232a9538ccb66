/** Real-time face guidance: detection, the feedback rules of the oval and automatic capture. */
import { grabFrame, meanLuma, type Frame } from './camera.js';
import { eyeAspectRatio, faceSharpness, yawDeg, type Point } from './face-measures.js';

/**
 * A detected face box in video pixels, with what the guide measured on it when the detector gave
 * landmarks (face-measures.ts): yaw (degrees), eye aspect ratio (unitless) and sharpness (Laplacian
 * variance of the face crop at 96 px, grey levels squared).
 */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
  landmarks?: Point[];
  yawDeg?: number;
  eyeAspect?: number;
  sharpness?: number;
}

export type Feedback =
  | 'noFace' | 'manyFaces' | 'tooFar' | 'tooClose' | 'offCentre' | 'tooDark' | 'headTurned' | 'eyesClosed' | 'blurry' | 'good' | 'manual';

/**
 * Tunables of the guide. The oval drawn on the video and the acceptance rule use the same numbers:
 * the oval is centred at (ovalCx, ovalCy) with radii ovalRx (fraction of the frame width) and ovalRy
 * (fraction of the frame height). A face is the right size when the detector's box is between
 * minFill and maxFill of the oval's width (face-api's tiny detector boxes the whole face, ear to ear:
 * on the e2e camera a head that fills the oval gives a box of 1.0-1.15 of its width), and centred
 * when the box centre is within maxOffset oval radii of the oval centre. Luma is 0..255.
 */
export const GUIDE = {
  minLuma: 55,
  ovalCx: 0.5,
  ovalCy: 0.5,
  ovalRx: 0.17,
  ovalRy: 0.36,
  minFill: 0.8,
  maxFill: 1.35,
  maxOffset: 0.35,
  /**
   * Head turned past this yaw (degrees, face-measures.ts `yawDeg`). The station's enrollment gate
   * allows 60 (src/face/tuning.ts); the kiosk asks for a frontal face well inside it. On 3,811
   * lfw-dev photos as fake-camera frames (`npx tsx bench/kiosk-face-hints.ts --photos 3811`):
   * |yaw| median 11, p95 34.
   */
  maxYawDeg: 25,
  /**
   * Eyes closed under this eye aspect ratio (the more open eye). lfw-dev: p1 0.23, median 0.30;
   * under 0.215 only shut, squinting or hidden eyes (Rubens_Barrichello_0012, shut: 0.184).
   */
  minEyeAspect: 0.215,
  /**
   * Blurred under this Laplacian variance of the 96 px face crop. lfw-dev: p5 26, median 84; the
   * same photos blurred 3 px: median 9, p95 20.
   */
  minSharpness: 30,
  /** The face must stay good this long (ms) before the automatic capture; a countdown shows it. */
  holdMs: 1200,
};

/** The oval in frame pixels. */
export function ovalOf(frame: { widthPx: number; heightPx: number }): { cx: number; cy: number; rx: number; ry: number } {
  return { cx: GUIDE.ovalCx * frame.widthPx, cy: GUIDE.ovalCy * frame.heightPx, rx: GUIDE.ovalRx * frame.widthPx, ry: GUIDE.ovalRy * frame.heightPx };
}

/**
 * The clerk-facing verdict for one frame: light first, then count, size and centring of the face
 * against the on-screen oval (GUIDE: the same geometry the oval is drawn with), then, when the face
 * was measured (`measureFace`), head turned, eyes closed and blur, in that order.
 */
export function assessFace(faces: FaceBox[], frame: { widthPx: number; heightPx: number }, luma: number): Feedback {
  if (luma < GUIDE.minLuma) return 'tooDark';
  if (faces.length === 0) return 'noFace';
  const sorted = [...faces].sort((a, b) => b.width * b.height - a.width * a.height);
  if (sorted.length > 1 && sorted[1]!.width > sorted[0]!.width * 0.6) return 'manyFaces';
  const face = sorted[0]!;
  const oval = ovalOf(frame);
  const fill = face.width / (2 * oval.rx);
  if (fill < GUIDE.minFill) return 'tooFar';
  if (fill > GUIDE.maxFill) return 'tooClose';
  const dx = Math.abs(face.x + face.width / 2 - oval.cx) / oval.rx;
  const dy = Math.abs(face.y + face.height / 2 - oval.cy) / oval.ry;
  if (dx > GUIDE.maxOffset || dy > GUIDE.maxOffset) return 'offCentre';
  if (face.yawDeg !== undefined && Math.abs(face.yawDeg) > GUIDE.maxYawDeg) return 'headTurned';
  if (face.eyeAspect !== undefined && face.eyeAspect < GUIDE.minEyeAspect) return 'eyesClosed';
  if (face.sharpness !== undefined && face.sharpness < GUIDE.minSharpness) return 'blurry';
  return 'good';
}

/** What a detector can look at. */
export type DetectorInput = HTMLVideoElement | HTMLCanvasElement | HTMLImageElement;

/** Detects faces in a video frame; with `landmarks`, each face carries its 68 landmarks (source px). */
export interface FaceDetector {
  detect(source: DetectorInput, options?: { landmarks?: boolean }): Promise<FaceBox[]>;
}

/**
 * Fills in yaw, eye aspect ratio and sharpness of the largest face, when it has landmarks (the
 * other faces only count for 'manyFaces'). Returns the same array.
 */
export function measureFace(source: DetectorInput, faces: FaceBox[]): FaceBox[] {
  const face = [...faces].sort((a, b) => b.width * b.height - a.width * a.height)[0];
  if (!face?.landmarks || face.landmarks.length < 68) return faces;
  face.yawDeg = yawDeg(face.landmarks);
  face.eyeAspect = eyeAspectRatio(face.landmarks);
  face.sharpness = faceSharpness(source, face);
  return faces;
}

function sizeOf(source: DetectorInput): { widthPx: number; heightPx: number } {
  if (source instanceof HTMLVideoElement) return { widthPx: source.videoWidth, heightPx: source.videoHeight };
  if (source instanceof HTMLImageElement) return { widthPx: source.naturalWidth, heightPx: source.naturalHeight };
  return { widthPx: source.width, heightPx: source.height };
}

let zoomCanvas: HTMLCanvasElement | null = null;
/**
 * Detects faces, and when none is found looks again at the frame shrunk to half size in the middle
 * of a grey canvas of the same size: a face so close that it overflows the frame is missed by the
 * detector at full size but found at half size, so the guide can say "too close" instead of "no
 * face". Boxes are returned in the source's pixels (they may reach past its edges).
 */
export async function detectWithZoomOut(detector: FaceDetector, source: DetectorInput): Promise<FaceBox[]> {
  const found = await detector.detect(source, { landmarks: true });
  if (found.length > 0) return measureFace(source, found);
  const { widthPx: w, heightPx: h } = sizeOf(source);
  if (!w || !h) return found;
  zoomCanvas ??= document.createElement('canvas');
  zoomCanvas.width = w;
  zoomCanvas.height = h;
  const ctx = zoomCanvas.getContext('2d')!;
  ctx.fillStyle = '#808080';
  ctx.fillRect(0, 0, w, h);
  ctx.drawImage(source, w / 4, h / 4, w / 2, h / 2);
  const small = await detector.detect(zoomCanvas);
  return small.map((f) => ({ x: (f.x - w / 4) * 2, y: (f.y - h / 4) * 2, width: f.width * 2, height: f.height * 2, score: f.score }));
}

/** Whether WebGL runs on a real GPU (not SwiftShader or another software rasteriser). */
function hardwareWebGl(): boolean {
  try {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return false;
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const renderer = String(info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER));
    return !/swiftshader|llvmpipe|software/i.test(renderer);
  } catch {
    return false;
  }
}

/**
 * Loads face-api's tiny face detector and its 68-point landmark net (weights shipped in
 * @vladmandic/face-api, served by the station under `modelUrl`) on the fastest TF.js backend the browser offers: WebGL on a real GPU,
 * else WebAssembly (SIMD; binaries from @tensorflow/tfjs-backend-wasm, served beside the weights),
 * else plain JavaScript. `backend` names the one in use.
 * @throws when the models cannot be loaded (the guide then falls back to manual capture).
 */
export async function createFaceDetector(modelUrl = './models', options: { backends?: string[] } = {}): Promise<FaceDetector & { backend: string }> {
  const faceapi = await import('@vladmandic/face-api');
  const tf = faceapi.tf as unknown as { setBackend(b: string): Promise<boolean>; ready(): Promise<void>; getBackend(): string; setWasmPaths?(p: string): void };
  const base = new URL(modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`, location.href).href;
  tf.setWasmPaths?.(base);
  const order = options.backends ?? (hardwareWebGl() ? ['webgl', 'wasm', 'cpu'] : ['wasm', 'webgl', 'cpu']);
  for (const backend of order) {
    if (await tf.setBackend(backend).then((ok) => ok, () => false)) break;
  }
  await tf.ready();
  await faceapi.nets.tinyFaceDetector.loadFromUri(modelUrl);
  await faceapi.nets.faceLandmark68Net.loadFromUri(modelUrl);
  const tiny = new faceapi.TinyFaceDetectorOptions({ inputSize: 224, scoreThreshold: 0.5 });
  return {
    backend: tf.getBackend(),
    async detect(source, opts = {}) {
      if (!opts.landmarks) {
        const found = await faceapi.detectAllFaces(source, tiny);
        return found.map((d) => ({ x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score }));
      }
      const found = await faceapi.detectAllFaces(source, tiny).withFaceLandmarks();
      return found.map(({ detection: d, landmarks }) => ({
        x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score,
        landmarks: landmarks.positions.map((p) => ({ x: p.x, y: p.y })),
      }));
    },
  };
}

/** Options of the guide loop. */
export interface FaceGuideOptions {
  video: HTMLVideoElement;
  detector: FaceDetector | null;
  /** `holdLeftMs`: while the face is good, the time left before the automatic capture (for a countdown). */
  onFeedback(feedback: Feedback, face: FaceBox | null, holdLeftMs: number | null): void;
  onCapture(frame: Frame): void;
  /** How long (ms) the face must stay good before the automatic capture. Default GUIDE.holdMs. */
  holdMs?: number;
}

/**
 * Runs detection on the live video, reports feedback per frame and captures automatically once
 * the face has been good for `holdMs` (and at least two frames). Without a detector it reports
 * `manual` (or `tooDark`). Returns a stop function.
 */
export function runFaceGuide(options: FaceGuideOptions): () => void {
  let stopped = false;
  let goodSince: number | null = null;
  let goodFrames = 0;
  const hold = options.holdMs ?? GUIDE.holdMs;
  const tick = async () => {
    if (stopped) return;
    const { video } = options;
    if (video.videoWidth > 0) {
      const frame = { widthPx: video.videoWidth, heightPx: video.videoHeight };
      const luma = meanLuma(video, frame.widthPx, frame.heightPx);
      let feedback: Feedback = luma < GUIDE.minLuma ? 'tooDark' : 'manual';
      let face: FaceBox | null = null;
      if (options.detector && feedback !== 'tooDark') {
        const faces = await detectWithZoomOut(options.detector, video).catch(() => []);
        feedback = assessFace(faces, frame, luma);
        face = faces[0] ?? null;
      }
      if (stopped) return;
      const now = performance.now();
      if (feedback === 'good') {
        goodSince ??= now;
        goodFrames += 1;
      } else {
        goodSince = null;
        goodFrames = 0;
      }
      const left = goodSince === null ? null : Math.max(0, hold - (now - goodSince));
      options.onFeedback(feedback, face, left);
      if (left === 0 && goodFrames >= 2) {
        stopped = true;
        options.onCapture(grabFrame(video));
        return;
      }
    }
    setTimeout(() => void tick(), 25);
  };
  void tick();
  return () => {
    stopped = true;
  };
}

/**
 * Checks one still frame before a manual capture: the verdict of the guide for that frame, or
 * `manual` when no detector is loaded. The kiosk refuses the capture for noFace, manyFaces and tooDark.
 */
export async function checkStill(source: DetectorInput, detector: FaceDetector | null): Promise<Feedback> {
  const frame = sizeOf(source);
  const luma = meanLuma(source, frame.widthPx, frame.heightPx);
  if (!detector) return luma < GUIDE.minLuma ? 'tooDark' : 'manual';
  const faces = await detectWithZoomOut(detector, source).catch(() => []);
  return assessFace(faces, frame, luma);
}
