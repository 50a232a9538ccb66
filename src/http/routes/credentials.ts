import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { BiostationError } from '../../runtime/errors.js';
import type { StationServices } from '../context.js';
import { PlainError } from '../schemas.js';

const Credential = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 200 }),
  secret: Type.String({ minLength: 1, maxLength: 200 }),
});

/**
 * POST /api/v1/app-credentials/validate and /token. Validate answers 200 `{ valid: true,
 * application }` or 401; token answers `{ token }` (plus `expires_in` seconds and `token_type`).
 */
export function credentialRoutes(services: StationServices): FastifyPluginAsync {
  /** The enabled application of the body's key and secret. @throws UNAUTHORIZED */
  const authenticated = async (body: unknown) => {
    const { key, secret } = body as { key: string; secret: string };
    const application = await services.applications.authenticate(key, secret);
    if (!application) throw new BiostationError('UNAUTHORIZED', 'Invalid key or secret');
    return application;
  };

  return async (app) => {
    app.post(
      '/api/v1/app-credentials/validate',
      {
        config: { rateLimit: { max: services.config.credentialAttemptsPerMinute, timeWindow: '1 minute' } },
        schema: {
          tags: ['credentials'],
          summary: 'Check a key and secret without issuing a token',
          body: Credential,
          response: {
            200: Type.Object({ valid: Type.Literal(true), application: Type.String({ description: 'Application name' }) }),
            400: PlainError,
            401: PlainError,
            429: PlainError,
          },
        },
      },
      async (request) => ({ valid: true as const, application: (await authenticated(request.body)).name }),
    );

    app.post(
      '/api/v1/app-credentials/token',
      {
        config: { rateLimit: { max: services.config.credentialAttemptsPerMinute, timeWindow: '1 minute' } },
        schema: {
          tags: ['credentials'],
          summary: 'Exchange a key and secret for an access token (JWT)',
          body: Credential,
          response: {
            200: Type.Object({
              token: Type.String({ description: 'JWT (EdDSA) naming the application' }),
              token_type: Type.Literal('Bearer'),
              expires_in: Type.Integer({ description: 'Lifetime in seconds' }),
            }),
            400: PlainError,
            401: PlainError,
            429: PlainError,
          },
        },
      },
      async (request) => {
        const application = await authenticated(request.body);
        const { token } = await services.tokens.issue(application.id, application.tokenGeneration ?? 0);
        return { token, token_type: 'Bearer' as const, expires_in: services.tokens.lifetimeSeconds };
      },
    );
  };
}
