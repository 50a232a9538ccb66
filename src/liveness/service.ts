/**
 * Advanced liveness: validation of the encrypted payload of the client capture library.
 *
 * The check itself is src/liveness/advanced/ (payload format: docs/liveness-payload.md).
 */

import type { ChallengeView } from './advanced/challenge.js';

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

/** Who asks: the challenge nonce inside a payload must have been issued to the same application. */
export interface LivenessCheckContext {
  applicationId: string;
}

export interface LivenessService {
  /** @throws LivenessError for an unparsable, undecryptable or unusable payload. */
  check(payload: Uint8Array, context: LivenessCheckContext): Promise<AdvancedLivenessResult>;
  /** Issues a one-time challenge (nonce, colour sequence, the station's public key); absent when the mode is off. */
  challenge?(applicationId: string): ChallengeView;
}

/** Refuses every payload (a station without the advanced mode). */
export class UnsupportedPayloadLivenessService implements LivenessService {
  async check(_payload: Uint8Array, _context: LivenessCheckContext): Promise<AdvancedLivenessResult> {
    throw new LivenessError(400, 'Failed to parse file', 'UNKNOWN');
  }
}
