/**
 * A person's document record (issue #16, finding 7): the CNH fields the clerk confirmed at
 * enrollment and the card-photo <-> live-face result, as one opaque blob per ext_id in the
 * application's store (never an image). The service (src/services/person-documents.ts) gives the
 * blob its JSON shape; EncryptingTenantStoreProvider wraps the repository with `encryptingDocuments`
 * (encryption/encrypting-documents.ts) so the blob is sealed with the application's data key like
 * templates. Implementations: sqlite/document-repository.ts, postgres/document-repository.ts.
 *
 * Station sync (src/sync): documents have their own change feed beside the persons', with the same
 * rules. Every write stamps the record with a version (hybrid logical clock, src/sync/hlc.ts) and a
 * change sequence number from the application's sync clock; a delete leaves a document tombstone.
 * A record follows its person: when the ext_id's last face or fingerprint person is deleted
 * (DELETE of the API, or a tombstone applied by sync) the record goes and a document tombstone with
 * the person delete's version is left, so the removal travels even when the person comes back
 * (re-enrolled) before the peer syncs. A record received from a peer is stored only when a person
 * with that ext_id exists here (`refused` otherwise).
 */
import type { ApplyOutcome } from './types.js';

/** One stored document record: the (possibly sealed) bytes, when they were written (ISO 8601 UTC) and the version of that write. */
export interface StoredDocument {
  data: Uint8Array;
  updatedAt: string;
  /** Hybrid-logical-clock version of the latest write ('' for none recorded). */
  version: string;
}

/** A document record's latest state or its tombstone, as applied from a peer. */
export type IncomingDocumentChange =
  | { kind: 'upsert'; extId: string; version: string; updatedAt: string; data: Uint8Array }
  | { kind: 'delete'; extId: string; version: string; deletedAt: string; stationId: string };

/** A change of the local document feed, with its sequence number. */
export type DocumentChange = IncomingDocumentChange & { seq: number };

/** As for persons; `refused`: a record for an ext_id with no face and no fingerprint person here (never stored). */
export type DocumentApplyOutcome = ApplyOutcome | 'refused';

/** Document records of one application, one per ext_id. Every write is one transaction. */
export interface DocumentRepository {
  /**
   * Creates or replaces the record of `extId` (a new version and sequence number; a tombstone of the
   * ext_id goes) when a face or fingerprint person with that ext_id exists; returns false, writing
   * nothing, when none does. The check and the write are one transaction, ordered with person
   * deletes (PostgreSQL: both lock the application's clock row), so a record never outlives its person.
   */
  put(extId: string, data: Uint8Array, now: string): Promise<boolean>;
  get(extId: string): Promise<StoredDocument | undefined>;
  /** The records of those of `extIds` that have one (the persons' dump). */
  getMany(extIds: string[]): Promise<Map<string, StoredDocument>>;
  /** Deletes the record, leaving a tombstone. Returns false when there was none (nothing written). */
  delete(extId: string): Promise<boolean>;
  /** How many records there are. */
  count(): Promise<number>;
  /** Records in a stable order (first written first), for the documents dump. */
  page(offset: number, limit: number): Promise<Array<StoredDocument & { extId: string }>>;

  /** Records and tombstones with a sequence number above `afterSeq`, in sequence order, at most `limit`. */
  changes(afterSeq: number, limit: number): Promise<DocumentChange[]>;
  /** How many changes lie above `afterSeq`. */
  countChanges(afterSeq: number): Promise<number>;
  /**
   * The newest sequence number of the feed (record or tombstone; 0 when empty). Sync bounds a round's
   * document phase by it, read before the persons' feeds (src/sync/service.ts).
   */
  lastSeq(): Promise<number>;
  /**
   * Applies a peer's changes in one transaction, each when its version is newer than what is held
   * for the ext_id (record or tombstone); an upsert only when a person with that ext_id exists.
   */
  applyChanges(changes: IncomingDocumentChange[]): Promise<DocumentApplyOutcome[]>;
  /** The version held for an ext_id (record, else tombstone); undefined when neither. */
  versionOf(extId: string): Promise<string | undefined>;
  /** Whether a face or fingerprint person with this ext_id exists (the rule applyChanges follows). */
  personExists(extId: string): Promise<boolean>;
  /** Drops document tombstones deleted before `before` (ISO time); returns how many. */
  purgeTombstones(before: string): Promise<number>;
}
