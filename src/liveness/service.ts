/**
 * Advanced liveness: validation of the encrypted payload of the client capture library.
 *
 * Status: the capture library and its payload format are not built yet, so no payload can be
 * valid: every payload is answered with the spec's "Failed to parse file" (400, UNKNOWN). The
 * route, authentication and error bodies are final; the check lands with the capture library.
 */

/** The spec's advanced liveness response (HTTP 200). */
export interface AdvancedLivenessResult {
  success: true;
  data: {
    face_liveness: { probability: number };
    capture_liveness: { probability: number; score: number; rejection: string[] };
  };
}

/** A failure from the spec's "Advanced liveness errors" table. */
export class LivenessError extends Error {
  constructor(
    readonly status: 400 | 500,
    message: string,
    /** FACE_NOT_FOUND, FACE_CROPPED, ..., UNKNOWN. */
    readonly errorCode: string,
  ) {
    super(message);
    this.name = 'LivenessError';
  }
}

export interface LivenessService {
  /** @throws LivenessError for an unparsable, undecryptable or unusable payload. */
  check(payload: Uint8Array): Promise<AdvancedLivenessResult>;
}

/** Refuses every payload until the capture library's format exists (see the module comment). */
export class UnsupportedPayloadLivenessService implements LivenessService {
  async check(_payload: Uint8Array): Promise<AdvancedLivenessResult> {
    throw new LivenessError(400, 'Failed to parse file', 'UNKNOWN');
  }
}
