import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { StationAdmin } from '../../auth/station-admin.js';
import { SyncPeerError, type LocalApp, type SyncPeerRegistry } from '../../sync/peer-registry.js';
import type { StationServices } from '../context.js';
import { PlainError } from '../schemas.js';
import { ADMIN_SECURITY, ADMIN_TAGS, KeyParams, adminGuard, plain } from './admin-common.js';

const BASE = '/api/v1/admin/applications/:key/sync-peers';
const tags = ADMIN_TAGS;
const security = ADMIN_SECURITY;

const NamedParams = Type.Object({ key: Type.String({ minLength: 1, maxLength: 200 }), name: Type.String({ minLength: 1, maxLength: 200 }) });
const Peer = Type.Object({
  name: Type.String(),
  url: Type.String({ description: 'Base URL of the peer station' }),
  key: Type.String({ description: "Key of the peer's application (its secret is never returned)" }),
  source: Type.Union([Type.Literal('config'), Type.Literal('admin')], { description: 'config: set by BIOSTATION_SYNC_PEERS (read-only here); admin: added through this API' }),
});
const NewPeer = Type.Object({
  name: Type.String({ maxLength: 200, description: '1..64 letters, digits, ".", "_", "-"; unique for the application' }),
  url: Type.String({ maxLength: 1000, description: 'https://host[:port][/path] (plain http only to a loopback address); no user, query or fragment' }),
  key: Type.String({ maxLength: 1000, description: "Key of the peer's application" }),
  secret: Type.String({ maxLength: 1000, description: "Secret of the peer's application; stored, never returned" }),
}, { additionalProperties: false });
const errors = { 400: PlainError, 401: PlainError, 404: PlainError, 409: PlainError };

const STATUS: Record<SyncPeerError['code'], number> = {
  INVALID_PEER_NAME: 400, INVALID_PEER_URL: 400, INVALID_PEER_CREDENTIAL: 400, TOO_MANY_PEERS: 400,
  PEER_EXISTS: 409, PEER_CONFIGURED: 409, PEER_NOT_FOUND: 404, PEER_FILE_UNREADABLE: 409, PEER_LIST_BUSY: 409,
};

/**
 * Sync peers of an application, from the kiosk's Admin screen (issue #16 follow-up). Station-admin
 * session only (as admin.ts), never an application token: an application naming a URL would make
 * the station send its requests anywhere. Peers of the configuration are listed and cannot be
 * changed here; added ones are kept by src/sync/peer-registry.ts.
 *   GET    /api/v1/admin/applications/{key}/sync-peers                -> { peers: [{ name, url, key, source }] }
 *   POST   /api/v1/admin/applications/{key}/sync-peers { name, url, key, secret } -> { peer } (no secret)
 *   DELETE /api/v1/admin/applications/{key}/sync-peers/{name}         -> { removed: true }
 * Errors (plain body with `code`): 401 UNAUTHORIZED; 404 APPLICATION_NOT_FOUND, PEER_NOT_FOUND;
 * 400 INVALID_PEER_NAME, INVALID_PEER_URL, INVALID_PEER_CREDENTIAL, TOO_MANY_PEERS; 409 PEER_EXISTS, PEER_CONFIGURED,
 * PEER_FILE_UNREADABLE (the stored list is corrupt: listed as empty, never overwritten), PEER_LIST_BUSY (changed elsewhere at the same time, 3 tries).
 * Peers belong to the application of `{key}` by its key (names are not unique): another
 * application of the same name neither sees nor removes them.
 */
export function adminPeerRoutes(services: StationServices, admin: StationAdmin, peers: SyncPeerRegistry): FastifyPluginAsync {
  const guarded = adminGuard(admin);
  /** Runs `work` with the applications, once the one of `key` is known to exist; maps the typed errors. */
  const withApp = async <T>(reply: FastifyReply, key: string, work: (apps: LocalApp[]) => T | Promise<T>): Promise<T | FastifyReply> => {
    const apps = await services.applications.list();
    if (!apps.some((a) => a.key === key)) return plain(reply, 404, 'APPLICATION_NOT_FOUND', 'No application with this key');
    try {
      return await work(apps);
    } catch (e) {
      if (!(e instanceof SyncPeerError)) throw e;
      return plain(reply, STATUS[e.code], e.code, e.message);
    }
  };

  return async (app) => {
    app.get(BASE, {
      onRequest: guarded,
      schema: { tags, security, summary: "The application's sync peers (never a secret)", params: KeyParams, response: { 200: Type.Object({ peers: Type.Array(Peer) }), ...errors } },
    }, async (request, reply) => withApp(reply, (request.params as Static<typeof KeyParams>).key, async (apps) => ({ peers: await peers.viewsOf(apps, (request.params as Static<typeof KeyParams>).key) })));

    app.post(BASE, {
      onRequest: guarded,
      schema: { tags, security, summary: 'Add a sync peer to the application (the background schedule and POST /api/v1/sync/pull|push use it)', params: KeyParams, body: NewPeer, response: { 200: Type.Object({ peer: Peer }), ...errors } },
    }, async (request, reply) => {
      const body = request.body as Static<typeof NewPeer>;
      const { key } = request.params as Static<typeof KeyParams>;
      return withApp(reply, key, async (apps) => ({ peer: await peers.add(apps, key, { name: body.name, url: body.url, key: body.key, secret: body.secret }) }));
    });

    app.delete(`${BASE}/:name`, {
      onRequest: guarded,
      schema: { tags, security, summary: 'Remove a sync peer added here (configured ones are changed in the configuration)', params: NamedParams, response: { 200: Type.Object({ removed: Type.Literal(true) }), ...errors } },
    }, async (request, reply) => {
      const { key, name } = request.params as Static<typeof NamedParams>;
      return withApp(reply, key, async (apps) => {
        await peers.remove(apps, key, name);
        return { removed: true as const };
      });
    });
  };
}
