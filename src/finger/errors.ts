/**
 * The fingerprint engine's own failures. The engine knows nothing of HTTP: each failure carries a stable
 * code and the HTTP layer (src/http/errors.ts) maps it to a status and a result code.
 */

export const FINGER_ERROR_TEXT = {
  INVALID_IMAGE: 'The data is not a decodable image',
  IMAGE_TOO_LARGE: 'The image exceeds the size or pixel limit',
  IMAGE_TOO_SMALL: 'The image is too small to be processed',
  INVALID_DPI: 'The resolution is outside 100..2000 dpi',
  NO_FINGERPRINT: 'No usable fingerprint was found in the image',
  FINGERPRINT_QUALITY_TOO_LOW: 'The fingerprint is of too low quality',
  INVALID_TEMPLATE: 'The template is truncated, malformed or of an unknown format',
  ENGINE_UNAVAILABLE: 'The fingerprint engine is not available',
} as const;

export type FingerErrorCode = keyof typeof FINGER_ERROR_TEXT;

/** A fingerprint engine failure: bad input, or gallery workers that cannot run (ENGINE_UNAVAILABLE). */
export class FingerError extends Error {
  constructor(
    readonly code: FingerErrorCode,
    message?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message ?? FINGER_ERROR_TEXT[code]);
    this.name = 'FingerError';
  }
}

export function isFingerError(e: unknown): e is FingerError {
  return e instanceof FingerError;
}
