import { BiostationError } from '../runtime/errors.js';
import type { ApplyOutcome, IncomingChange, PersonRepository, SyncRecord, TenantStore } from '../store/types.js';
import { DEFAULT_PEER_LIMITS, PeerClient, type Peer, type PeerLimits } from './peer-client.js';
import { InvalidPage, decodePage, type Modality } from './wire.js';

/** Throws when this station cannot compare the template (another model version, unreadable record). */
export type TemplateCheck = (modality: Modality) => Promise<(template: Uint8Array) => void>;

export interface SyncOptions {
  /** Read and compare only: nothing is written, no checkpoint moves. */
  dryRun?: boolean;
  /** Called after each page: changes handled so far and the total known at that point. */
  onProgress?: (p: { modality: Modality; done: number; total: number }) => void;
  /** Stop after this many pages per modality (tests: an interrupted sync). */
  maxPages?: number;
}

export interface SyncCounts {
  /** Changes read from (pull) or sent to (push) the peer. */
  pulled: number;
  created: number;
  updated: number;
  deleted: number;
  /** Already as recent on the receiving side, tombstones of persons it never had, refused persons. */
  skipped: number;
  /** Persons refused because their templates belong to another model version. */
  refused: number;
}

const MODALITIES: Modality[] = ['face', 'finger'];
const zero = (): SyncCounts => ({ pulled: 0, created: 0, updated: 0, deleted: 0, skipped: 0, refused: 0 });

/**
 * Station-to-station sync over the change feed (wire.ts): each application's persons and
 * tombstones, per modality, in change-sequence order. Per person the change with the newest
 * version wins (hybrid logical clock, station id as tie-break; store `applyChange`), so pulling and
 * pushing in any order, any number of times, converges to the same state on both sides. A delete
 * travels as a tombstone. Pages are validated whole before any of their changes is written; the
 * checkpoint (last sequence number applied from or sent to that peer) moves after each page, so an
 * interrupted sync resumes where it stopped and a repeated one is a no-op. Persons whose templates
 * this station cannot compare are refused (counted), never stored.
 *
 * Peers come from the station's configuration (the CLI on the station, BIOSTATION_SYNC_PEERS),
 * never from an application's request. Each sync is written to the application's sync log, with
 * the peer's origin only.
 */
export class SyncService {
  constructor(
    private readonly check: TemplateCheck,
    private readonly limits: PeerLimits = DEFAULT_PEER_LIMITS,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Pulls the peer's changes into `store`. @throws PEER_UNREACHABLE, PEER_UNAUTHORIZED, PEER_INVALID_RESPONSE, INVALID_REQUEST (URL) */
  async pull(store: TenantStore, peer: Peer, options: SyncOptions = {}): Promise<SyncRecord> {
    const client = new PeerClient(peer, this.limits, this.fetchImpl);
    return this.logged(store, client.origin, 'pull', options, async (counts) => {
      for (const modality of MODALITIES) {
        const repository = repo(store, modality);
        const assertUsable = await this.check(modality);
        let since = await store.syncLog.checkpoint(client.origin, 'pull', modality);
        let done = 0;
        for (let page = 1; ; page++) {
          if (options.maxPages !== undefined && page > options.maxPages) break;
          const legacy = page > 1 && since < 0 ? page : undefined;
          const got = await client.changes(modality, Math.max(since, 0), legacy);
          if (got.nextSince === undefined && since >= 0 && page === 1) since = -1; // a spec-only peer: page through its dump
          if (since >= 0 && got.changes.length > 0 && got.nextSince! <= since) {
            throw new BiostationError('PEER_INVALID_RESPONSE', 'The peer station answered something that is not a valid Biostation change feed: next_since did not advance');
          }
          await this.applyPage(repository, got.changes, assertUsable, counts, options.dryRun);
          done += got.changes.length;
          options.onProgress?.({ modality, done, total: since < 0 ? got.total : done + Math.max(0, got.total - got.changes.length) });
          if (since < 0) {
            if (got.changes.length === 0 || done >= got.total) break;
            continue;
          }
          if (got.changes.length === 0) break;
          since = got.nextSince!;
          if (!options.dryRun) await store.syncLog.setCheckpoint(client.origin, 'pull', modality, since);
          if (got.changes.length < this.limits.pageSize) break;
        }
      }
    });
  }

  /** Pushes this application's changes to the peer. Same errors as pull. */
  async push(store: TenantStore, peer: Peer, options: SyncOptions = {}): Promise<SyncRecord> {
    const client = new PeerClient(peer, this.limits, this.fetchImpl);
    return this.logged(store, client.origin, 'push', options, async (counts) => {
      for (const modality of MODALITIES) {
        const repository = repo(store, modality);
        let since = await store.syncLog.checkpoint(client.origin, 'push', modality);
        const total = await repository.countChanges(since);
        let done = 0;
        for (let page = 1; ; page++) {
          if (options.maxPages !== undefined && page > options.maxPages) break;
          const changes = await repository.changes(since, this.limits.pageSize);
          if (changes.length === 0) break;
          counts.pulled += changes.length;
          if (options.dryRun) counts.skipped += changes.length;
          else {
            const outcome = await client.push(modality, changes, since);
            for (const k of ['created', 'updated', 'deleted', 'skipped', 'refused'] as const) counts[k] += outcome[k] ?? 0;
          }
          since = changes[changes.length - 1].seq;
          if (!options.dryRun) await store.syncLog.setCheckpoint(client.origin, 'push', modality, since);
          done += changes.length;
          options.onProgress?.({ modality, done, total: Math.max(total, done) });
        }
      }
    });
  }

  /**
   * Applies a page pushed by a peer (POST /api/v1/sync/changes) to `store`. The page is validated
   * whole first. @throws INVALID_REQUEST naming the broken rule
   */
  async receive(store: TenantStore, modality: Modality, body: unknown, maxItems: number): Promise<SyncCounts> {
    let page;
    try {
      page = decodePage(modality, body, { maxItems });
    } catch (e) {
      if (e instanceof InvalidPage) throw new BiostationError('INVALID_REQUEST', `The pushed page was refused: ${e.message}`);
      throw e;
    }
    const counts = zero();
    const assertUsable = await this.check(modality);
    await this.applyPage(repo(store, modality), page.changes, assertUsable, counts, false);
    return counts;
  }

  /** The application's latest syncs, newest first. */
  history(store: TenantStore, limit = 10): Promise<SyncRecord[]> {
    return store.syncLog.recent(limit);
  }

  /** Drops the application's tombstones older than `days`. Returns how many. */
  async purgeTombstones(store: TenantStore, days: number): Promise<number> {
    const before = new Date(Date.now() - days * 86_400_000).toISOString();
    return (await store.faces.purgeTombstones(before)) + (await store.fingers.purgeTombstones(before));
  }

  /** Applies one page in one transaction (dry run: compares only); persons this station cannot compare are refused. */
  private async applyPage(
    repository: PersonRepository,
    changes: IncomingChange[],
    assertUsable: (t: Uint8Array) => void,
    counts: SyncCounts,
    dryRun?: boolean,
  ): Promise<void> {
    const accepted: IncomingChange[] = [];
    for (const change of changes) {
      counts.pulled++;
      if (change.kind === 'upsert' && !usable(assertUsable, change.templates)) {
        counts.refused++;
        counts.skipped++;
      } else accepted.push(change);
    }
    const outcomes: ApplyOutcome[] = [];
    if (!dryRun) outcomes.push(...(await repository.applyChanges(accepted)));
    else {
      for (const change of accepted) {
        const local = await repository.versionOf(change.extId);
        const exists = local !== undefined && (await repository.templateCount(change.extId)) !== undefined;
        outcomes.push(local !== undefined && change.version <= local ? 'stale' : change.kind === 'delete' ? (exists ? 'deleted' : 'tombstone') : exists ? 'updated' : 'created');
      }
    }
    for (const outcome of outcomes) {
      if (outcome === 'created' || outcome === 'updated' || outcome === 'deleted') counts[outcome]++;
      else counts.skipped++;
    }
  }

  private async logged(store: TenantStore, origin: string, direction: 'pull' | 'push', options: SyncOptions, run: (counts: SyncCounts) => Promise<void>): Promise<SyncRecord> {
    const startedAt = new Date().toISOString();
    const counts = zero();
    let error: BiostationError | undefined;
    try {
      await run(counts);
    } catch (e) {
      if (!(e instanceof BiostationError)) throw e;
      error = e;
    }
    const record: SyncRecord = { peerUrl: origin, direction, startedAt, finishedAt: new Date().toISOString(), ...counts, error: error ? `${error.code}: ${error.message}` : null };
    if (!options.dryRun) await store.syncLog.record(record);
    if (error) throw Object.assign(error, { sync: record });
    return record;
  }
}

const repo = (store: TenantStore, modality: Modality): PersonRepository => (modality === 'face' ? store.faces : store.fingers);

function usable(assertUsable: (template: Uint8Array) => void, templates: Array<{ data: Uint8Array }>): boolean {
  try {
    for (const t of templates) assertUsable(t.data);
    return true;
  } catch {
    return false;
  }
}
