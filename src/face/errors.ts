/**
 * The face engine's own failures. The engine knows nothing of HTTP: each failure carries a stable code
 * and the HTTP layer (src/http/errors.ts) maps it to a status and a result code.
 */

export const FACE_ERROR_TEXT = {
  INVALID_IMAGE: 'The data is not a decodable image',
  IMAGE_TOO_LARGE: 'The image exceeds the size or pixel limit',
  IMAGE_TOO_SMALL: 'The image is too small to be processed',
  NO_FACE: 'No face was found in the image',
  MULTIPLE_FACES: 'Several faces of similar size were found',
  FACE_QUALITY_TOO_LOW: 'The face is too small, blurred, turned or badly exposed',
  INVALID_TEMPLATE: 'The template is truncated, malformed or of an unknown format',
  TEMPLATE_INCOMPATIBLE: 'The template was made by another model or version',
  ENGINE_UNAVAILABLE: 'The face engine is not available',
} as const;

export type FaceErrorCode = keyof typeof FACE_ERROR_TEXT;

/** A face engine failure: bad input (INVALID_IMAGE .. TEMPLATE_INCOMPATIBLE) or models/workers that cannot run (ENGINE_UNAVAILABLE). */
export class FaceError extends Error {
  constructor(
    readonly code: FaceErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? FACE_ERROR_TEXT[code]);
    this.name = 'FaceError';
  }
}

export function isFaceError(e: unknown): e is FaceError {
  return e instanceof FaceError;
}
