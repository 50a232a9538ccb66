import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import type { SyncRecord } from '../../store/types.js';
import { tenantOf } from '../auth.js';
import type { Authenticate, StationServices } from '../context.js';
import { PlainError, Timestamp } from '../schemas.js';

const tags = ['sync'];
const security = [{ bearerAuth: [] }];

const PullBody = Type.Object({
  peerUrl: Type.String({ minLength: 1, maxLength: 500, description: 'Base URL of the peer station, e.g. http://10.0.0.7:8080' }),
  key: Type.String({ minLength: 1, maxLength: 200, description: "Key of the application to pull on the peer" }),
  secret: Type.String({ minLength: 1, maxLength: 200 }),
});

const SyncRecordSchema = Type.Object({
  peerUrl: Type.String(),
  startedAt: Timestamp,
  finishedAt: Timestamp,
  pulled: Type.Integer(),
  created: Type.Integer(),
  updated: Type.Integer(),
  skipped: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
});

/**
 * Station-to-station sync (extension: not in the interface spec). The token's application pulls
 * the persons of an application on a peer station; see src/sync/service.ts for the merge rule.
 */
export function syncRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', authenticate);

    app.post('/api/v1/sync/pull', {
      schema: {
        tags, security,
        summary: "Pull faces and fingerprints from a peer station's application into this one",
        description: 'Newest wins per person; deletions do not travel. 502 PEER_UNREACHABLE / PEER_UNAUTHORIZED / PEER_INVALID_RESPONSE when the peer fails.',
        body: PullBody,
        response: { 200: Type.Object({ sync: SyncRecordSchema }), 400: PlainError, 401: PlainError, 502: PlainError },
      },
    }, async (request) => {
      const body = request.body as Static<typeof PullBody>;
      return { sync: await services.sync.pull(tenantOf(request), { url: body.peerUrl, key: body.key, secret: body.secret }) };
    });

    app.get('/api/v1/sync/status', {
      schema: {
        tags, security,
        summary: "The application's latest pulls, newest first (lastSync: the latest successful one)",
        response: { 200: Type.Object({ lastSync: Type.Union([SyncRecordSchema, Type.Null()]), history: Type.Array(SyncRecordSchema) }), 401: PlainError },
      },
    }, async (request) => {
      const history: SyncRecord[] = await services.sync.history(tenantOf(request), 10);
      return { lastSync: history.find((h) => h.error === null) ?? null, history };
    });
  };
}
