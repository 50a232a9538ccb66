import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { LivenessError } from '../../liveness/service.js';
import { tenantOf } from '../auth.js';
import type { Authenticate, StationServices } from '../context.js';

const LivenessErrorBody = Type.Object({
  timestamp: Type.String(),
  status: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  path: Type.String(),
  error_code: Type.Optional(Type.String()),
});

/** The decision table of docs/liveness-payload.md, repeated in the OpenAPI description. */
export const LIVENESS_DECISION_TABLE = [
  'Payload format v1 and every rule: docs/liveness-payload.md. Decision table:',
  '',
  '| Failure | Answer |',
  '|---|---|',
  '| empty body, under 108 bytes, wrong magic, version not 1, flags not 0, ephemeral key not an uncompressed point | 400 `Failed to parse file` (UNKNOWN) |',
  '| key id is neither the current nor a kept previous liveness key of this station | 400 `Failed to decrypt message` (UNKNOWN) |',
  '| AES-GCM authentication fails (ciphertext, tag or header altered; point off the curve) | 200, rejection `UNTRUSTED_CORRUPTED_PAYLOAD`, face probability 0 |',
  '| plaintext lengths inconsistent, metadata not v1 JSON, frame count or size not as the metadata says, a frame not a decodable JPEG | 400 `Failed to read metadata` (UNKNOWN) |',
  '| nonce unknown, already used, expired, or issued to another application | 200, rejection `SUSPICIOUS_ACTIVITY` (checked before the frames) |',
  '| key frame: no face, cropped, occluded, several faces, angle, absolute / relative size, border, under 480p (in this order) | 400 with the spec message and FACE_* / TOO_MANY_FACES / IMAGE_TOO_SMALL |',
  '| automation, hooked media APIs, insecure page | 200, rejection `UNTRUSTED_ENVIRONMENT` |',
  '| virtual or fake camera label, track vs frame size mismatch, lying resolution probes | 200, rejection `UNTRUSTED_DEVICE` |',
  '| library build not served by this station, or integrity proof not bound to the nonce | 200, rejection `SDK_INTEGRITY_VIOLATION` |',
  '| colours not shown for the drawn durations, payload faster than the sequence, frame times outside it | 200, rejection `SUSPICIOUS_ACTIVITY` |',
  '| face reflection contradicts the colour sequence; consecutive frames are pixel copies; the challenge frames show another face than the key frame | 200, rejection `UNTRUSTED_CONTENT` |',
  '| no measurable or only a weak reflection | 200, rejection `UNTRUSTED_CONTENT_LOW_CONFIDENCE` |',
  '| missing or invalid token | 401 `Unauthorized` (no error_code) |',
  '| anything unexpected, face engine unavailable | 500 `Internal Server Error` (UNKNOWN) |',
].join('\n');

/**
 * POST /api/v1/services/liveness/challenge: a one-time challenge for the capture library.
 * POST /api/v1/services/liveness/check: raw `application/octet-stream` payload of the capture library.
 */
export function livenessRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', authenticate);
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: services.config.livenessBodyLimitBytes }, (_req, body, done) =>
      done(null, body),
    );

    app.post('/api/v1/services/liveness/challenge', {
      schema: {
        tags: ['liveness'],
        security: [{ bearerAuth: [] }],
        summary: 'One-time challenge for the capture library (not in the interface spec)',
        description:
          'A nonce (single use, expires after `expires_in_s`), a random sequence of 4-6 screen colours shown 300-500 ms each, and the station\'s current liveness public key (uncompressed P-256 point, base64url) with its key id. The capture library (served at `library`) calls this itself.',
        response: {
          200: Type.Object({
            format_version: Type.Literal(1),
            nonce: Type.String(),
            expires_at: Type.String(),
            expires_in_s: Type.Integer(),
            colours: Type.Array(Type.Object({ name: Type.String(), rgb: Type.Array(Type.Integer(), { minItems: 3, maxItems: 3 }), duration_ms: Type.Integer() })),
            key: Type.Object({ kid: Type.String(), crv: Type.Literal('P-256'), public_key: Type.String() }),
            library: Type.String(),
          }),
          400: LivenessErrorBody,
          401: LivenessErrorBody,
          500: LivenessErrorBody,
        },
      },
    }, async (request) => {
      if (!services.liveness.challenge) throw new LivenessError(500, 'Internal Server Error', 'UNKNOWN');
      return services.liveness.challenge(tenantOf(request).applicationId);
    });

    app.post('/api/v1/services/liveness/check', {
      bodyLimit: services.config.livenessBodyLimitBytes,
      schema: {
        tags: ['liveness'],
        security: [{ bearerAuth: [] }],
        summary: 'Advanced liveness of an encrypted capture-library payload',
        description: LIVENESS_DECISION_TABLE,
        response: {
          200: Type.Object({
            success: Type.Boolean(),
            data: Type.Object({
              face_liveness: Type.Object({ probability: Type.Number() }),
              capture_liveness: Type.Object({ probability: Type.Number(), score: Type.Number(), rejection: Type.Array(Type.String()) }),
            }),
          }),
          400: LivenessErrorBody,
          401: LivenessErrorBody,
          500: LivenessErrorBody,
        },
      },
    }, async (request) => {
      const body = request.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new LivenessError(400, 'Failed to parse file', 'UNKNOWN');
      const started = performance.now();
      const result = await services.liveness.check(new Uint8Array(body.buffer, body.byteOffset, body.byteLength), { applicationId: tenantOf(request).applicationId });
      request.log.info({ livenessCheckMs: Math.round(performance.now() - started), rejection: result.data.capture_liveness.rejection }, 'advanced liveness check');
      return result;
    });
  };
}
