/**
 * Face checks of the key frame, in the order of the spec's "Advanced liveness errors" table, each
 * with the table's exact 400 message and error_code. The faces come from a FaceInspector
 * (src/liveness/advanced/face-inspector.ts adapts the station's face engine; tests pass fakes).
 */
import { LivenessError } from '../service.js';

export interface FaceObservation {
  /** Box in image pixels; may reach outside the image when the face is cut by a border. */
  box: { x: number; y: number; width: number; height: number };
  /** Detector confidence 0..1. */
  score: number;
  yawDeg?: number;
  pitchDeg?: number;
  /** True when the inspector saw the face partly hidden; undefined when it cannot tell. */
  occluded?: boolean;
}

export interface FaceInspection {
  width: number;
  height: number;
  /** Dominant face first. */
  faces: FaceObservation[];
}

/** Finds the faces of one JPEG frame. */
export interface FaceInspector {
  inspect(jpeg: Uint8Array, size: { width: number; height: number }): Promise<FaceInspection>;
}

/** Thresholds of the checks (docs/liveness-payload.md, "Face checks"). */
export const FACE_LIMITS = {
  /** A face whose box leaves the image by more than this fraction of its width/height is cropped. */
  croppedFraction: 0.1,
  /** A second face at least this fraction of the dominant face's width, and confident, makes "too many". */
  secondFaceWidthRatio: 0.5,
  secondFaceMinScore: 0.5,
  maxYawDeg: 35,
  maxPitchDeg: 35,
  /** Absolute: face box width in pixels. */
  minFaceWidthPx: 100,
  /** Relative: face box width over image width. */
  minFaceWidthRatio: 0.15,
  /** Margin between the box and each border, as a fraction of that image dimension. */
  minBorderMargin: 0.02,
  /** 480p: the shorter image side. */
  minImageSidePx: 480,
} as const;

const fail = (message: string, code: string) => new LivenessError(400, message, code);

/**
 * Applies the spec's face checks to an inspection, first failure wins (table order).
 * @throws LivenessError 400 with the spec's message and error_code.
 */
export function checkFace(ins: FaceInspection, limits = FACE_LIMITS): FaceObservation {
  const { width: W, height: H } = ins;
  const face = ins.faces[0];
  if (!face) throw fail('Face not found', 'FACE_NOT_FOUND');
  const { x, y, width: w, height: h } = face.box;
  const outside = Math.max(-x / w, (x + w - W) / w, -y / h, (y + h - H) / h);
  if (outside > limits.croppedFraction) throw fail('Face is cropped', 'FACE_CROPPED');
  if (face.occluded === true) throw fail('Face is occluded', 'FACE_IS_OCCLUDED');
  const rivals = ins.faces.slice(1).filter((f) => f.score >= limits.secondFaceMinScore && f.box.width >= limits.secondFaceWidthRatio * w);
  if (rivals.length > 0) throw fail('Too many faces detected', 'TOO_MANY_FACES');
  if (Math.abs(face.yawDeg ?? 0) > limits.maxYawDeg || Math.abs(face.pitchDeg ?? 0) > limits.maxPitchDeg) {
    throw fail('Facial out-of-plane rotation angle is extremely large', 'FACE_ANGLE_TOO_LARGE');
  }
  if (w < limits.minFaceWidthPx) throw fail('Absolute face size is too small', 'FACE_TOO_SMALL');
  if (w / W < limits.minFaceWidthRatio) throw fail('Relative face size is too small', 'FACE_TOO_SMALL');
  const margin = Math.min(x / W, (W - x - w) / W, y / H, (H - y - h) / H);
  if (margin < limits.minBorderMargin) throw fail('Face is too close to one or more borders', 'FACE_CLOSE_TO_BORDER');
  if (Math.min(W, H) < limits.minImageSidePx) throw fail('Image too small to be processed', 'IMAGE_TOO_SMALL');
  return face;
}
