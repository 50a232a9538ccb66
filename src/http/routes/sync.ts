import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { BiostationError } from '../../runtime/errors.js';
import type { SyncRecord } from '../../store/types.js';
import { peerBase } from '../../sync/peer-client.js';
import { resolveConfigured, type KeyedPeer } from '../../sync/peer-registry.js';
import { encodeDocumentPage, parseStored } from '../../sync/document-wire.js';
import { tenantOf } from '../auth.js';
import type { Authenticate, StationServices } from '../context.js';
import { PlainError, Timestamp, pagingOf } from '../schemas.js';
import { DocumentJson, FeedQuery } from './sync-feed.js';

const tags = ['sync'];
const security = [{ bearerAuth: [] }];

/** Most changes one pushed page may hold, and the body it may take (templates are base64). */
export const MAX_PUSH_ITEMS = 1000;
const PUSH_BODY_LIMIT = 48 * 1024 * 1024;

const PeerChoice = Type.Object(
  { peer: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Name of a peer configured for this application (BIOSTATION_SYNC_PEERS, or added from the Admin screen for its key); optional when it has one' })) },
  { additionalProperties: false },
);

const SyncRecordSchema = Type.Object({
  peerUrl: Type.String({ description: "The peer's origin (scheme, host, port)" }),
  direction: Type.Optional(Type.Union([Type.Literal('pull'), Type.Literal('push')])),
  startedAt: Timestamp,
  finishedAt: Timestamp,
  pulled: Type.Integer({ description: 'Changes read from (pull) or sent to (push) the peer' }),
  created: Type.Integer(),
  updated: Type.Integer(),
  deleted: Type.Optional(Type.Integer()),
  skipped: Type.Integer(),
  refused: Type.Optional(Type.Integer({ description: 'Persons refused: templates of another model version' })),
  error: Type.Union([Type.String(), Type.Null()]),
});

const PushBody = Type.Object({
  modality: Type.Union([Type.Literal('face'), Type.Literal('finger'), Type.Literal('document')], { description: "The feed of the page: a modality's persons, or (extension) the persons' document records" }),
  faces: Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_PUSH_ITEMS })),
  fingers: Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_PUSH_ITEMS })),
  documents: Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_PUSH_ITEMS })),
  tombstones: Type.Optional(Type.Array(Type.Unknown(), { maxItems: MAX_PUSH_ITEMS })),
  total_entries: Type.Optional(Type.Integer({ minimum: 0 })),
  next_since: Type.Optional(Type.Integer({ minimum: 0 })),
});

const Counts = Type.Object({
  pulled: Type.Integer(), created: Type.Integer(), updated: Type.Integer(), deleted: Type.Integer(), skipped: Type.Integer(), refused: Type.Integer(),
});

const Version = Type.String({ description: 'Hybrid-logical-clock version of the latest change (ms.counter@station)' });
const DocumentDumpResponse = Type.Object({
  result: Type.Object({
    total_entries: Type.Integer({ description: 'Records (plain dump), or changes after `since` (feed)' }),
    documents: Type.Array(Type.Object({ externalId: Type.String(), document: DocumentJson, version: Version, seq: Type.Optional(Type.Integer()) })),
    tombstones: Type.Optional(Type.Array(Type.Object({ externalId: Type.String(), deletedAt: Timestamp, version: Version, stationId: Type.String(), seq: Type.Integer() }))),
    next_since: Type.Optional(Type.Integer()),
    last_seq: Type.Optional(Type.Integer({ description: 'Feed only: the newest sequence number of the feed when the answer was read (0 when empty); station sync reads it before the persons\' feeds to bound the round' })),
  }),
});

/**
 * The peers of the tenant's application (by its key: names are not unique): the configuration's and
 * the admin-added ones (src/sync/peer-registry.ts).
 */
async function peersOf(services: StationServices, applicationId: string): Promise<KeyedPeer[]> {
  const apps = await services.applications.list();
  const key = apps.find((a) => a.id === applicationId)?.key;
  if (key === undefined) return [];
  // Only this application's secrets are opened.
  return (await services.syncPeers?.all(apps, key)) ?? resolveConfigured(services.config.syncPeers ?? [], apps).filter((p) => p.appKey === key);
}

/** The names and URLs of the application's peers, no secret opened (the status; the Admin screen lists the same). */
async function peerViewsOf(services: StationServices, applicationId: string): Promise<Array<{ name: string; url: string }>> {
  const apps = await services.applications.list();
  const key = apps.find((a) => a.id === applicationId)?.key;
  if (key === undefined) return [];
  return (await services.syncPeers?.viewsOf(apps, key)) ?? resolveConfigured(services.config.syncPeers ?? [], apps).filter((p) => p.appKey === key);
}

/** The peer named `name` (or the only one) among the application's `mine`. @throws INVALID_REQUEST */
function configuredPeer(mine: readonly KeyedPeer[], name?: string): KeyedPeer {
  const chosen = name === undefined ? mine : mine.filter((p) => p.name === name);
  if (chosen.length === 0) throw new BiostationError('INVALID_REQUEST', 'No such sync peer is configured for this application (the station operator sets BIOSTATION_SYNC_PEERS or adds it from the Admin screen)');
  if (chosen.length > 1) throw new BiostationError('INVALID_REQUEST', 'Several sync peers are configured for this application: name one with "peer"');
  return chosen[0];
}

/**
 * Station-to-station sync (extension: not in the interface spec); see src/sync/service.ts. Peers
 * are the station operator's (BIOSTATION_SYNC_PEERS, the `sync` CLI, or added by the station admin
 * from the Admin screen: src/sync/peer-registry.ts): an application
 * may only run a sync with a peer configured for it, by name, and never names a URL or credential
 * itself (an application token able to send the station's requests anywhere would make the station
 * a port scanner). `POST /api/v1/sync/changes` receives a peer's push into the token's application.
 */
export function syncRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', authenticate);

    const run = (direction: 'pull' | 'push') => async (request: FastifyRequest) => {
      const tenant = tenantOf(request);
      const peer = configuredPeer(await peersOf(services, tenant.applicationId), (request.body as Static<typeof PeerChoice> | undefined)?.peer);
      const target = { url: peer.url, key: peer.key, secret: peer.secret };
      return { sync: direction === 'pull' ? await services.sync.pull(tenant.store, target) : await services.sync.push(tenant.store, target) };
    };

    for (const direction of ['pull', 'push'] as const) {
      app.post(`/api/v1/sync/${direction}`, {
        schema: {
          tags, security,
          summary: direction === 'pull' ? "Pull a configured peer's changes (persons and deletions) into this application" : "Push this application's changes to a configured peer",
          description:
            'The peer is one the station operator configured for this application (BIOSTATION_SYNC_PEERS); a request cannot name a URL or credential. ' +
            'Newest change per person wins (hybrid logical clock, station id tie-break); deletions travel as tombstones; resumes from the last checkpoint. ' +
            '502 PEER_UNREACHABLE / PEER_UNAUTHORIZED / PEER_INVALID_RESPONSE when the peer fails (fixed texts that do not describe the peer).',
          body: PeerChoice,
          response: { 200: Type.Object({ sync: SyncRecordSchema }), 400: PlainError, 401: PlainError, 502: PlainError },
        },
      }, run(direction));
    }

    app.get('/api/v1/sync/status', {
      schema: {
        tags, security,
        summary: "The application's configured peers (name and origin, never a credential) and latest syncs, newest first (lastSync: the latest successful one)",
        response: {
          200: Type.Object({
            peers: Type.Array(Type.Object({ name: Type.String(), url: Type.String() })),
            lastSync: Type.Union([SyncRecordSchema, Type.Null()]),
            history: Type.Array(SyncRecordSchema),
          }),
          401: PlainError,
        },
      },
    }, async (request) => {
      const tenant = tenantOf(request);
      const history: SyncRecord[] = await services.sync.history(tenant.store, 10);
      const peers = (await peerViewsOf(services, tenant.applicationId)).map((p) => ({ name: p.name, url: safeOrigin(p.url) }));
      return { peers, lastSync: history.find((h) => h.error === null) ?? null, history };
    });

    app.get('/api/v1/sync/documents', {
      schema: {
        tags, security,
        summary: "Extension: the application's document records (the dump), or with `since` their change feed",
        description: 'Without `since`: page `page` (1-based) of `limit` (1..1000, default 100) document records (src/store/documents.ts) in write order, each with its person\'s ext_id and version. ' +
          'With `since`: the records and deletions (tombstones) changed after that sequence number, in sequence order, with `next_since` and `last_seq` (the newest sequence number at the time of the answer), as station sync reads them (src/sync/document-wire.ts).',
        querystring: FeedQuery,
        response: { 200: DocumentDumpResponse, 400: PlainError, 401: PlainError, 503: PlainError },
      },
    }, async (request) => {
      const documents = tenantOf(request).store.documents;
      if (!documents) throw new BiostationError('ENGINE_UNAVAILABLE', 'This store keeps no document records');
      const query = request.query as Static<typeof FeedQuery>;
      const { page, limit } = pagingOf(query);
      if (query.since !== undefined) {
        const after = Number(query.since);
        const lastSeq = await documents.lastSeq();
        const [changes, total] = await Promise.all([documents.changes(after, limit), documents.countChanges(after)]);
        return { result: { ...encodeDocumentPage(changes, total, after), last_seq: lastSeq } };
      }
      const [total, rows] = await Promise.all([documents.count(), documents.page((page - 1) * limit, limit)]);
      return { result: { total_entries: total, documents: rows.flatMap((r) => { const document = parseStored(r.data); return document ? [{ externalId: r.extId, document, version: r.version }] : []; }) } };
    });

    app.post('/api/v1/sync/changes', {
      bodyLimit: PUSH_BODY_LIMIT,
      schema: {
        tags, security,
        summary: "Receive a page of a peer's changes (its push) into this application",
        description: 'The body is one page of the change feed (the dump extension: persons with Version and Seq, tombstones; or with modality `document` a page of GET /api/v1/sync/documents?since=). The page is validated whole before anything is written (ext_id rule, template limits, times); persons whose templates this station cannot compare are refused and counted.',
        body: PushBody,
        response: { 200: Type.Object({ outcome: Counts }), 400: PlainError, 401: PlainError },
      },
    }, async (request) => {
      const body = request.body as Static<typeof PushBody>;
      return { outcome: await services.sync.receive(tenantOf(request).store, body.modality, body, MAX_PUSH_ITEMS) };
    });
  };
}

function safeOrigin(url: string): string {
  try {
    return new URL(peerBase(url)).origin;
  } catch {
    return '(invalid)';
  }
}
