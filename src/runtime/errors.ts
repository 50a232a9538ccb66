/**
 * The one catalogue of user-facing failures. Every error a request can meet has a stable
 * string code (returned as `result.message` by the face and fingerprint routes), an HTTP status
 * and a numeric result code. Success codes in the spec are even (1000..1010); the failures sit on
 * the odd codes beside them, and input errors from 1020 upwards. The OpenAPI document lists this
 * table verbatim (see src/http/openapi.ts).
 */
export const ERROR_CATALOGUE = {
  PERSON_ALREADY_EXISTS: { status: 409, resultCode: 1001, text: 'A person with this ext_id is already enrolled' },
  NOT_VERIFIED: { status: 200, resultCode: 1003, text: 'The probe does not match' },
  PERSON_NOT_FOUND: { status: 404, resultCode: 1005, text: 'No person with this ext_id' },
  NOT_IDENTIFIED: { status: 200, resultCode: 1009, text: 'No enrolled person matches the probe' },
  NOT_MATCHED: { status: 200, resultCode: 1011, text: 'The two samples do not match' },
  LIVENESS_CHECK_FAILED: { status: 200, resultCode: 1013, text: 'liveness check failed' },
  UNAUTHORIZED: { status: 401, resultCode: 1015, text: 'Missing, invalid or expired token' },
  ENGINE_UNAVAILABLE: { status: 503, resultCode: 1017, text: 'The recognition engine is not available' },
  INTERNAL_ERROR: { status: 500, resultCode: 1019, text: 'Unexpected server error' },
  INVALID_REQUEST: { status: 400, resultCode: 1020, text: 'The request does not match the schema' },
  INVALID_BASE64: { status: 400, resultCode: 1021, text: 'A field is not valid base64' },
  INVALID_IMAGE: { status: 400, resultCode: 1022, text: 'The data is not a decodable image' },
  IMAGE_TOO_LARGE: { status: 400, resultCode: 1023, text: 'The image exceeds the size or pixel limit' },
  IMAGE_TOO_SMALL: { status: 400, resultCode: 1024, text: 'The image is too small to be processed' },
  NO_FACE: { status: 400, resultCode: 1025, text: 'No face was found in the image' },
  MULTIPLE_FACES: { status: 400, resultCode: 1026, text: 'Several faces of similar size were found' },
  FACE_QUALITY_TOO_LOW: { status: 400, resultCode: 1027, text: 'The face is too small, blurred, turned or badly exposed' },
  NO_FINGERPRINT: { status: 400, resultCode: 1028, text: 'No usable fingerprint was found in the image' },
  FINGERPRINT_QUALITY_TOO_LOW: { status: 400, resultCode: 1029, text: 'The fingerprint is of too low quality' },
  INVALID_TEMPLATE: { status: 400, resultCode: 1030, text: 'The template is truncated, malformed or of an unknown format' },
  TEMPLATE_INCOMPATIBLE: { status: 400, resultCode: 1031, text: 'The template was made by another model or version' },
  INVALID_IMAGE_TYPE: { status: 400, resultCode: 1032, text: 'imageType must be "frontal"' },
  PAYLOAD_TOO_LARGE: { status: 413, resultCode: 1033, text: 'The request body is too large' },
  ROUTE_NOT_FOUND: { status: 404, resultCode: 1035, text: 'No such route' },
  TEMPLATE_LIMIT_REACHED: { status: 409, resultCode: 1037, text: 'The person already holds the most templates allowed' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, resultCode: 1039, text: 'Unsupported Content-Type' },
  RATE_LIMITED: { status: 429, resultCode: 1041, text: 'Too many attempts; retry later' },
  PEER_UNREACHABLE: { status: 502, resultCode: 1043, text: 'The peer station could not be reached' },
  PEER_UNAUTHORIZED: { status: 502, resultCode: 1045, text: 'The peer station refused the key and secret' },
  PEER_INVALID_RESPONSE: { status: 502, resultCode: 1047, text: 'The peer station answered something that is not a Biostation dump' },
  DUPLICATE_FOUND: { status: 409, resultCode: 1049, text: 'The sample matches a person already enrolled under another ext_id (de-duplication policy block)' },
  LIVENESS_FRAMES_INCONSISTENT: { status: 400, resultCode: 1051, text: 'A liveness frame does not hold one face of the same person, at the same place and scale, as the main image' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/**
 * A failure with a stable code. Engines throw it for bad input (NO_FACE, INVALID_IMAGE, ...);
 * services throw it for rule violations (PERSON_NOT_FOUND, ...). The HTTP layer maps it to the
 * status and body of the catalogue; anything else that escapes becomes INTERNAL_ERROR (500).
 */
export class BiostationError extends Error {
  readonly code: ErrorCode;
  readonly details?: Record<string, unknown>;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERROR_CATALOGUE[code].text);
    this.name = 'BiostationError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CATALOGUE[this.code].status;
  }

  get resultCode(): number {
    return ERROR_CATALOGUE[this.code].resultCode;
  }
}

export function isBiostationError(e: unknown): e is BiostationError {
  return e instanceof BiostationError;
}
