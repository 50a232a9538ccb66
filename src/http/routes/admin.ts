import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { ApplicationError } from '../../auth/applications.js';
import type { StationAdmin } from '../../auth/station-admin.js';
import type { ApplicationRecord } from '../../store/types.js';
import type { StationServices } from '../context.js';
import { PlainError } from '../schemas.js';
import { ADMIN_SECURITY, ADMIN_TAGS, KeyParams, adminGuard, bearerOf, plain } from './admin-common.js';
import { adminPeerRoutes } from './admin-peers.js';

const BASE = '/api/v1/admin';
const tags = ADMIN_TAGS;
const security = ADMIN_SECURITY;
const Application = Type.Object({
  name: Type.String(),
  key: Type.String(),
  createdAt: Type.String(),
  disabledAt: Type.Union([Type.String(), Type.Null()]),
  dedupPolicy: Type.Union([Type.Literal('off'), Type.Literal('warn'), Type.Literal('block')]),
});
const IssuedCredential = Type.Object({ name: Type.String(), key: Type.String(), secret: Type.String({ description: 'Shown once; only its hash is stored' }) });
const errors = { 400: PlainError, 401: PlainError, 404: PlainError, 429: PlainError };

const view = (a: ApplicationRecord) => ({ name: a.name, key: a.key, createdAt: a.createdAt, disabledAt: a.disabledAt, dedupPolicy: a.dedupPolicy ?? 'warn' });

/**
 * The station-admin API (issue #16): applications listed, created, disabled, rotated and their
 * de-duplication policy set, from the kiosk's Admin screen. Protected by the station-admin
 * credential (src/auth/station-admin.ts), never by an application token:
 *   POST /api/v1/admin/session { secret }          -> { token, expiresAt } | 401 (rate limited)
 *   DELETE /api/v1/admin/session                   -> { ended: true }
 *   GET  /api/v1/admin/applications                -> { applications: [...] }
 *   POST /api/v1/admin/applications { name }       -> { name, key, secret } (secret shown once)
 *   POST /api/v1/admin/applications/{key}/disable  -> { key, disabled: true }
 *   POST /api/v1/admin/applications/{key}/rotate   -> { name, key, secret }
 *   PUT  /api/v1/admin/applications/{key}/dedup { policy: off|warn|block } -> { key, dedupPolicy }
 *   GET|POST /api/v1/admin/applications/{key}/sync-peers, DELETE .../sync-peers/{name} (admin-peers.ts)
 * Every route but POST /session needs `Authorization: Bearer <session token>`; errors are the
 * plain body `{ statusCode, error, code, message }` (UNAUTHORIZED, APPLICATION_NOT_FOUND,
 * INVALID_NAME, INVALID_DEDUP_POLICY).
 */
export function adminRoutes(services: StationServices, admin: StationAdmin): FastifyPluginAsync {
  const guarded = adminGuard(admin);
  const mapped = async <T>(reply: FastifyReply, run: () => Promise<T>): Promise<T | FastifyReply> => {
    try {
      return await run();
    } catch (e) {
      if (!(e instanceof ApplicationError)) throw e;
      return plain(reply, e.code === 'APPLICATION_NOT_FOUND' ? 404 : 400, e.code, e.message);
    }
  };

  return async (app) => {
    app.post(`${BASE}/session`, {
      config: { rateLimit: { max: services.config.credentialAttemptsPerMinute, timeWindow: '1 minute' } },
      schema: {
        tags, summary: 'Exchange the station-admin secret for a session token (15 minutes)',
        body: Type.Object({ secret: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: Type.Object({ token: Type.String(), expiresAt: Type.String() }), ...errors },
      },
    }, async (request, reply) => {
      const session = await admin.openSession((request.body as { secret: string }).secret);
      return session ?? plain(reply, 401, 'UNAUTHORIZED', 'Wrong station-admin secret');
    });

    app.delete(`${BASE}/session`, {
      onRequest: guarded,
      schema: { tags, security, summary: 'End the session', response: { 200: Type.Object({ ended: Type.Literal(true) }), 401: PlainError } },
    }, async (request) => {
      admin.closeSession(bearerOf(request)!);
      return { ended: true as const };
    });

    app.get(`${BASE}/applications`, {
      onRequest: guarded,
      schema: { tags, security, summary: 'Every application of the station', response: { 200: Type.Object({ applications: Type.Array(Application) }), ...errors } },
    }, async () => ({ applications: (await services.applications.list()).map(view) }));

    app.post(`${BASE}/applications`, {
      onRequest: guarded,
      schema: { tags, security, summary: 'Create an application (its secret is shown once)', body: Type.Object({ name: Type.String({ maxLength: 200 }) }), response: { 200: IssuedCredential, ...errors } },
    }, async (request, reply) => mapped(reply, () => services.applications.create((request.body as { name: string }).name)));

    app.post(`${BASE}/applications/:key/disable`, {
      onRequest: guarded,
      schema: { tags, security, summary: 'Disable an application: its credential and tokens stop working', params: KeyParams, response: { 200: Type.Object({ key: Type.String(), disabled: Type.Literal(true) }), ...errors } },
    }, async (request, reply) => mapped(reply, async () => {
      const { key } = request.params as Static<typeof KeyParams>;
      await services.applications.disable(key);
      return { key, disabled: true as const };
    }));

    app.post(`${BASE}/applications/:key/rotate`, {
      onRequest: guarded,
      schema: { tags, security, summary: 'Issue a new secret (the old one and its tokens stop working)', params: KeyParams, response: { 200: IssuedCredential, ...errors } },
    }, async (request, reply) => mapped(reply, () => services.applications.rotateSecret((request.params as Static<typeof KeyParams>).key)));

    app.put(`${BASE}/applications/:key/dedup`, {
      onRequest: guarded,
      schema: {
        tags, security, summary: 'Set de-duplication at enrollment: off | warn | block', params: KeyParams,
        body: Type.Object({ policy: Type.String() }), response: { 200: Type.Object({ key: Type.String(), dedupPolicy: Type.String() }), ...errors },
      },
    }, async (request, reply) => mapped(reply, async () => {
      const { key } = request.params as Static<typeof KeyParams>;
      const { policy } = request.body as { policy: string };
      await services.applications.setDedupPolicy(key, policy);
      return { key, dedupPolicy: policy };
    }));

    // An application's sync peers (admin-peers.ts).
    if (services.syncPeers) await app.register(adminPeerRoutes(services, admin, services.syncPeers));
  };
}
