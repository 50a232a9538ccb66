import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { LivenessError } from '../../liveness/service.js';
import type { Authenticate, StationServices } from '../context.js';

const LivenessErrorBody = Type.Object({
  timestamp: Type.String(),
  status: Type.Integer(),
  error: Type.String(),
  message: Type.String(),
  path: Type.String(),
  error_code: Type.Optional(Type.String()),
});

/** POST /api/v1/services/liveness/check: raw `application/octet-stream` payload of the capture library. */
export function livenessRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', authenticate);
    app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: services.config.livenessBodyLimitBytes }, (_req, body, done) =>
      done(null, body),
    );

    app.post('/api/v1/services/liveness/check', {
      bodyLimit: services.config.livenessBodyLimitBytes,
      schema: {
        tags: ['liveness'],
        security: [{ bearerAuth: [] }],
        summary: 'Advanced liveness of an encrypted capture-library payload',
        description: 'Not yet able to accept any payload: the capture library is not built, so every payload gets 400 "Failed to parse file".',
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
      return services.liveness.check(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
    });
  };
}
