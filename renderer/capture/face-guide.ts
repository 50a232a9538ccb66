/** Real-time face guidance: detection, the feedback rules of the oval and automatic capture. */
import { grabFrame, meanLuma, type Frame } from './camera.js';

/** A detected face box in video pixels. */
export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
  score: number;
}

export type Feedback = 'noFace' | 'manyFaces' | 'tooFar' | 'tooClose' | 'offCentre' | 'tooDark' | 'good' | 'manual';

/** Tunables of the guide (fractions of the frame width/height; luma 0..255). */
export const GUIDE = {
  minLuma: 55,
  minFaceWidth: 0.2,
  maxFaceWidth: 0.62,
  maxOffsetX: 0.14,
  maxOffsetY: 0.16,
  stableFrames: 3,
};

/**
 * The clerk-facing verdict for one frame: light first, then count, size and centring of the face
 * against the on-screen oval (centred in the frame).
 */
export function assessFace(faces: FaceBox[], frame: { widthPx: number; heightPx: number }, luma: number): Feedback {
  if (luma < GUIDE.minLuma) return 'tooDark';
  if (faces.length === 0) return 'noFace';
  const sorted = [...faces].sort((a, b) => b.width * b.height - a.width * a.height);
  if (sorted.length > 1 && sorted[1]!.width > sorted[0]!.width * 0.6) return 'manyFaces';
  const face = sorted[0]!;
  const rel = face.width / frame.widthPx;
  if (rel < GUIDE.minFaceWidth) return 'tooFar';
  if (rel > GUIDE.maxFaceWidth) return 'tooClose';
  const dx = Math.abs(face.x + face.width / 2 - frame.widthPx / 2) / frame.widthPx;
  const dy = Math.abs(face.y + face.height / 2 - frame.heightPx / 2) / frame.heightPx;
  if (dx > GUIDE.maxOffsetX || dy > GUIDE.maxOffsetY) return 'offCentre';
  return 'good';
}

/** Detects faces in a video frame. */
export interface FaceDetector {
  detect(video: HTMLVideoElement): Promise<FaceBox[]>;
}

/**
 * Loads face-api's tiny face detector (weights shipped in @vladmandic/face-api, served by the
 * station under `modelUrl`) on the fastest TF.js backend the browser offers.
 * @throws when the models cannot be loaded (the guide then falls back to manual capture).
 */
export async function createFaceDetector(modelUrl = './models'): Promise<FaceDetector> {
  const faceapi = await import('@vladmandic/face-api');
  const tf = faceapi.tf as unknown as { setBackend(b: string): Promise<boolean>; ready(): Promise<void> };
  if (!(await tf.setBackend('webgl').catch(() => false))) await tf.setBackend('cpu');
  await tf.ready();
  await faceapi.nets.tinyFaceDetector.loadFromUri(modelUrl);
  const options = new faceapi.TinyFaceDetectorOptions({ inputSize: 224, scoreThreshold: 0.5 });
  return {
    async detect(video) {
      const found = await faceapi.detectAllFaces(video, options);
      return found.map((d) => ({ x: d.box.x, y: d.box.y, width: d.box.width, height: d.box.height, score: d.score }));
    },
  };
}

/** Options of the guide loop. */
export interface FaceGuideOptions {
  video: HTMLVideoElement;
  detector: FaceDetector | null;
  onFeedback(feedback: Feedback, face: FaceBox | null): void;
  onCapture(frame: Frame): void;
  /** Good frames in a row before the automatic capture. */
  stableFrames?: number;
}

/**
 * Runs detection on the live video, reports feedback per frame and captures automatically after
 * `stableFrames` good frames in a row. Without a detector it reports `manual` (or `tooDark`).
 * Returns a stop function.
 */
export function runFaceGuide(options: FaceGuideOptions): () => void {
  let stopped = false;
  let good = 0;
  const need = options.stableFrames ?? GUIDE.stableFrames;
  const tick = async () => {
    if (stopped) return;
    const { video } = options;
    if (video.videoWidth > 0) {
      const frame = { widthPx: video.videoWidth, heightPx: video.videoHeight };
      const luma = meanLuma(video, frame.widthPx, frame.heightPx);
      let feedback: Feedback = luma < GUIDE.minLuma ? 'tooDark' : 'manual';
      let face: FaceBox | null = null;
      if (options.detector) {
        const faces = await options.detector.detect(video).catch(() => []);
        feedback = assessFace(faces, frame, luma);
        face = faces[0] ?? null;
      }
      if (stopped) return;
      options.onFeedback(feedback, face);
      good = feedback === 'good' ? good + 1 : 0;
      if (good >= need) {
        stopped = true;
        options.onCapture(grabFrame(video));
        return;
      }
    }
    setTimeout(() => void tick(), 120);
  };
  void tick();
  return () => {
    stopped = true;
  };
}
