import { BiostationError } from '../runtime/errors.js';
import type { DocumentApplyOutcome, DocumentChange, DocumentRepository, IncomingDocumentChange } from '../store/documents.js';
import type { ApplyOutcome, IncomingChange, PersonChange, PersonRepository, SyncFeed, SyncRecord, TenantStore } from '../store/types.js';
import { decodeDocumentPage } from './document-wire.js';
import { DEFAULT_PEER_LIMITS, PeerClient, type Peer, type PeerLimits } from './peer-client.js';
import { InvalidPage, decodePage, type Modality } from './wire.js';

/** Throws when this station cannot compare the template (another model version, unreadable record). */
export type TemplateCheck = (modality: Modality) => Promise<(template: Uint8Array) => void>;

export interface SyncOptions {
  /** Read and compare only: nothing is written, no checkpoint moves. */
  dryRun?: boolean;
  /** Called after each page: changes handled so far and the total known at that point (`document`: the document records' feed). */
  onProgress?: (p: { modality: SyncFeed; done: number; total: number }) => void;
  /** Stop after this many pages per feed (tests: an interrupted sync); a pull so cut short leaves the documents' feed for the next one. */
  maxPages?: number;
}

export interface SyncCounts {
  /** Changes read from (pull) or sent to (push) the peer. */
  pulled: number;
  created: number;
  updated: number;
  deleted: number;
  /** Already as recent on the receiving side, tombstones of persons it never had, refused persons, documents of persons not here. */
  skipped: number;
  /** Persons refused because their templates belong to another model version. */
  refused: number;
}

const MODALITIES: Modality[] = ['face', 'finger'];
const zero = (): SyncCounts => ({ pulled: 0, created: 0, updated: 0, deleted: 0, skipped: 0, refused: 0 });

/**
 * Station-to-station sync over the change feed (wire.ts): each application's persons and
 * tombstones, per modality, in change-sequence order, then the persons' document records and their
 * tombstones (document-wire.ts; src/store/documents.ts) by the same rules, after the persons so
 * that a record finds its person (and only once the persons' feeds were read or sent whole); a
 * record for an ext_id with no person on the receiving side is refused (counted as skipped), never
 * stored. Counts add documents to persons. Per person the change with the newest version wins (hybrid logical clock, station id as tie-break; store `applyChange`), so pulling and
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
      let complete = true;
      let specOnly = false;
      // The peer's document feed head, read BEFORE its persons' feeds: a record written up to it has its
      // person earlier in those feeds (a put needs its person), so it never arrives before its person.
      // (A failure here is raised only once the peer is known to be a Biostation, not a spec-only one.)
      const head = store.documents ? await client.documentFeedHead().catch((e: unknown) => e) : { keeps: false };
      const seen = new Set<string>();
      for (const modality of MODALITIES) {
        const repository = repo(store, modality);
        const assertUsable = await this.check(modality);
        let since = await store.syncLog.checkpoint(client.origin, 'pull', modality);
        let done = 0;
        for (let page = 1; ; page++) {
          if (options.maxPages !== undefined && page > options.maxPages) {
            complete = false;
            break;
          }
          const legacy = page > 1 && since < 0 ? page : undefined;
          const got = await client.changes(modality, Math.max(since, 0), legacy);
          if (got.nextSince === undefined && since >= 0 && page === 1) {
            since = -1; // a spec-only peer: page through its dump (it keeps no documents' feed either)
            specOnly = true;
          }
          if (since >= 0 && got.changes.length > 0 && got.nextSince! <= since) {
            throw new BiostationError('PEER_INVALID_RESPONSE', 'The peer station answered something that is not a valid Biostation change feed: next_since did not advance');
          }
          await this.applyPage(repository, got.changes, assertUsable, counts, options.dryRun, seen);
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
      if (complete && !specOnly && store.documents) {
        if (head instanceof Error) throw head;
        const { keeps, lastSeq } = head as { keeps: boolean; lastSeq?: number };
        if (keeps) await this.pullDocuments(store, store.documents, client, counts, options, lastSeq, seen);
      }
    });
  }

  /**
   * The peer's document feed after the checkpoint, page by page (after the persons' feeds), up to
   * `bound` (the feed head read before those feeds; undefined from an older peer: all of it). The
   * checkpoint never moves past `bound`; later records wait for the next round, after their persons.
   * `seen`: ext_ids a dry run's person pages would create (counted as present).
   */
  private async pullDocuments(store: TenantStore, documents: DocumentRepository, client: PeerClient, counts: SyncCounts, options: SyncOptions, bound: number | undefined, seen: Set<string>): Promise<void> {
    let since = await store.syncLog.checkpoint(client.origin, 'pull', 'document');
    let done = 0;
    for (let page = 1; ; page++) {
      if (options.maxPages !== undefined && page > options.maxPages) break;
      if (bound !== undefined && since >= bound) break;
      const got = await client.documentChanges(since);
      if (got.changes.length === 0) break;
      if (got.nextSince <= since) throw new BiostationError('PEER_INVALID_RESPONSE', 'The peer station answered something that is not a valid Biostation change feed: next_since did not advance');
      const within = bound === undefined ? got.changes : got.changes.filter((c) => c.seq <= bound);
      await this.applyDocuments(documents, within, counts, options.dryRun, seen);
      done += within.length;
      options.onProgress?.({ modality: 'document', done, total: done + Math.max(0, got.total - got.changes.length) });
      since = bound === undefined ? got.nextSince : Math.min(got.nextSince, bound);
      if (!options.dryRun) await store.syncLog.setCheckpoint(client.origin, 'pull', 'document', since);
      if (got.changes.length < this.limits.pageSize) break;
    }
  }

  /**
   * Pushes this application's changes to the peer: persons per modality, then document records (when
   * the persons' feeds were sent whole and the peer keeps documents). Same errors as pull.
   */
  async push(store: TenantStore, peer: Peer, options: SyncOptions = {}): Promise<SyncRecord> {
    const client = new PeerClient(peer, this.limits, this.fetchImpl);
    return this.logged(store, client.origin, 'push', options, async (counts) => {
      let complete = true;
      // The local document feed head, read BEFORE the persons' feeds are sent: records up to it have
      // their persons in those feeds; later ones go next round, after their persons.
      const bound = await store.documents?.lastSeq();
      for (const modality of MODALITIES) complete = (await this.pushFeed(store, modality, repo(store, modality), client, counts, options)) && complete;
      // An older peer without the documents' feed would refuse their page: it gets the persons only.
      if (complete && store.documents && (await client.keepsDocuments())) await this.pushFeed(store, 'document', store.documents, client, counts, options, bound);
    });
  }

  /** Sends one feed from its push checkpoint, page by page, the changes up to `bound` when given. Returns false when cut short by maxPages. */
  private async pushFeed(
    store: TenantStore,
    feed: SyncFeed,
    repository: Pick<PersonRepository | DocumentRepository, 'countChanges'> & { changes(afterSeq: number, limit: number): Promise<Array<{ seq: number }>> },
    client: PeerClient,
    counts: SyncCounts,
    options: SyncOptions,
    bound?: number,
  ): Promise<boolean> {
    let since = await store.syncLog.checkpoint(client.origin, 'push', feed);
    const total = await repository.countChanges(since);
    let done = 0;
    for (let page = 1; ; page++) {
      if (options.maxPages !== undefined && page > options.maxPages) return false;
      const read = await repository.changes(since, this.limits.pageSize);
      const changes = bound === undefined ? read : read.filter((c) => c.seq <= bound);
      if (changes.length === 0) return true;
      counts.pulled += changes.length;
      if (options.dryRun) counts.skipped += changes.length;
      else {
        const outcome = await client.push(feed, changes as PersonChange[] | DocumentChange[], since);
        for (const k of ['created', 'updated', 'deleted', 'skipped', 'refused'] as const) counts[k] += outcome[k] ?? 0;
      }
      since = changes[changes.length - 1].seq;
      if (!options.dryRun) await store.syncLog.setCheckpoint(client.origin, 'push', feed, since);
      done += changes.length;
      options.onProgress?.({ modality: feed, done, total: Math.max(total, done) });
    }
  }

  /**
   * Applies a page pushed by a peer (POST /api/v1/sync/changes) to `store`. The page is validated
   * whole first. @throws INVALID_REQUEST naming the broken rule
   */
  async receive(store: TenantStore, modality: SyncFeed, body: unknown, maxItems: number): Promise<SyncCounts> {
    let page;
    try {
      page = modality === 'document' ? decodeDocumentPage(body, { maxItems }) : decodePage(modality, body, { maxItems });
    } catch (e) {
      if (e instanceof InvalidPage) throw new BiostationError('INVALID_REQUEST', `The pushed page was refused: ${e.message}`);
      throw e;
    }
    const counts = zero();
    if (modality === 'document') {
      if (!store.documents) throw new BiostationError('INVALID_REQUEST', 'The pushed page was refused: this store keeps no document records');
      await this.applyDocuments(store.documents, page.changes as IncomingDocumentChange[], counts, false);
      return counts;
    }
    const assertUsable = await this.check(modality);
    await this.applyPage(repo(store, modality), page.changes as IncomingChange[], assertUsable, counts, false);
    return counts;
  }

  /** The application's latest syncs, newest first. */
  history(store: TenantStore, limit = 10): Promise<SyncRecord[]> {
    return store.syncLog.recent(limit);
  }

  /** Drops the application's tombstones (persons' and documents') older than `days`. Returns how many. */
  async purgeTombstones(store: TenantStore, days: number): Promise<number> {
    const before = new Date(Date.now() - days * 86_400_000).toISOString();
    return (await store.faces.purgeTombstones(before)) + (await store.fingers.purgeTombstones(before)) + ((await store.documents?.purgeTombstones(before)) ?? 0);
  }

  /**
   * Applies one page in one transaction (dry run: compares only, and the ext_ids of the persons it
   * would write are added to `seen`); persons this station cannot compare are refused.
   */
  private async applyPage(
    repository: PersonRepository,
    changes: IncomingChange[],
    assertUsable: (t: Uint8Array) => void,
    counts: SyncCounts,
    dryRun?: boolean,
    seen?: Set<string>,
  ): Promise<void> {
    const accepted: IncomingChange[] = [];
    for (const change of changes) {
      counts.pulled++;
      if (change.kind === 'upsert' && !usable(assertUsable, change.templates)) {
        counts.refused++;
        counts.skipped++;
      } else {
        accepted.push(change);
        if (dryRun && change.kind === 'upsert') seen?.add(change.extId);
      }
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
    tally(outcomes, counts);
  }

  /**
   * Applies a page of document changes in one transaction (dry run: compares only; ext_ids in `seen`,
   * persons this dry run's person pages would write, count as present).
   */
  private async applyDocuments(documents: DocumentRepository, changes: IncomingDocumentChange[], counts: SyncCounts, dryRun?: boolean, seen?: Set<string>): Promise<void> {
    counts.pulled += changes.length;
    const outcomes: DocumentApplyOutcome[] = [];
    if (!dryRun) outcomes.push(...(await documents.applyChanges(changes)));
    else {
      for (const change of changes) {
        const local = await documents.versionOf(change.extId);
        const held = local !== undefined && (await documents.get(change.extId).then((d) => d !== undefined, () => true));
        if (local !== undefined && change.version <= local) outcomes.push('stale');
        else if (change.kind === 'delete') outcomes.push(held ? 'deleted' : 'tombstone');
        else if (!seen?.has(change.extId) && !(await documents.personExists(change.extId))) outcomes.push('refused');
        else outcomes.push(held ? 'updated' : 'created');
      }
    }
    tally(outcomes, counts);
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

/** Adds a page's outcomes to the round's counts: created, updated and deleted as such, anything else skipped. */
function tally(outcomes: ReadonlyArray<ApplyOutcome | DocumentApplyOutcome>, counts: SyncCounts): void {
  for (const outcome of outcomes) {
    if (outcome === 'created' || outcome === 'updated' || outcome === 'deleted') counts[outcome]++;
    else counts.skipped++;
  }
}
