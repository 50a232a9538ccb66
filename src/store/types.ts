/**
 * Repository interfaces: every outside effect of the services goes through these, so a service
 * reads as the business rule alone and a PostgreSQL store can stand beside the SQLite one.
 * Timestamps are ISO 8601 UTC strings with milliseconds (e.g. "2026-11-21T09:42:33.123Z").
 */

export interface ApplicationRecord {
  /** Stable internal id (UUID); names the application's database. */
  id: string;
  name: string;
  /** Public credential half, sent by clients as `key`. */
  key: string;
  /** argon2id PHC string of the secret; the secret itself is never stored. */
  secretHash: string;
  createdAt: string;
  disabledAt: string | null;
  /** Decision thresholds of this application; null = the engine's calibrated default. */
  faceThreshold: number | null;
  fingerThreshold: number | null;
  /**
   * Raised by every secret rotation and by disabling: access tokens carry the generation they were
   * issued under and are refused once it is behind (revocation without a token list).
   */
  tokenGeneration?: number;
  /** De-duplication at enrollment (src/services/dedup.ts); undefined reads as the default, `warn`. */
  dedupPolicy?: 'off' | 'warn' | 'block';
  /** Passive liveness threshold (doLivenessCheck) on the fused probability 0..1; null/undefined = the engine's default. */
  livenessThreshold?: number | null;
}

export interface ApplicationRepository {
  insert(app: ApplicationRecord): Promise<void>;
  findByKey(key: string): Promise<ApplicationRecord | undefined>;
  findById(id: string): Promise<ApplicationRecord | undefined>;
  list(): Promise<ApplicationRecord[]>;
  /** Sets disabledAt and raises tokenGeneration; returns false when no application has that key. */
  disable(key: string, at: string): Promise<boolean>;
  /** Replaces the secret hash and raises tokenGeneration; returns false when no application has that key. */
  updateSecretHash(key: string, secretHash: string): Promise<boolean>;
  /** Sets (or with null clears) the decision thresholds; returns false when no application has that key. */
  updateThresholds(key: string, thresholds: { faceThreshold?: number | null; fingerThreshold?: number | null; livenessThreshold?: number | null }): Promise<boolean>;
  /** Sets the de-duplication policy; returns false when no application has that key. */
  updateDedupPolicy(key: string, policy: 'off' | 'warn' | 'block'): Promise<boolean>;
}

/**
 * The sync peers added from the Admin screen, as one JSON document (its shape is
 * src/sync/peer-registry.ts's), kept with the station registry: on PostgreSQL every API node reads and
 * changes the same list. A write is conditional on the version read, so two writers at once do not
 * lose a change (the second is told to read again).
 */
export interface PeerListStore {
  /** The document and its version (no body and version 0 before the first write). */
  read(): Promise<{ body?: string; version: number }>;
  /** Stores `body` as version `expected + 1` if the stored version is still `expected`; false when another writer came first. */
  write(body: string, expected: number): Promise<boolean>;
}

/** One stored biometric template. `data` is the engine's template bytes, never an image. */
export interface StoredTemplate {
  data: Uint8Array;
  /** Finger position for fingerprints (e.g. "UNKNOWN"); null for faces. */
  position: string | null;
  createdAt: string;
}

export interface PersonSummary {
  extId: string;
  createdAt: string;
}

export interface PersonRecord extends PersonSummary {
  updatedAt: string;
  templates: StoredTemplate[];
  /** Hybrid-logical-clock version of the person's latest change (src/sync/hlc.ts); set by stores that record versions. */
  version?: string;
}

export interface NewTemplate {
  data: Uint8Array;
  position?: string | null;
}

/**
 * Persons of one modality (faces or fingerprints) of one application. Every write is one
 * transaction: a crash mid-write leaves the person as it was before.
 */
export interface PersonRepository {
  count(): Promise<number>;
  /** All persons, oldest first. */
  list(): Promise<PersonSummary[]>;
  find(extId: string): Promise<PersonRecord | undefined>;
  /** Number of templates of the person, undefined when unknown. */
  templateCount(extId: string): Promise<number | undefined>;
  /** Creates the person with its templates; returns false (and writes nothing) if it exists. */
  create(extId: string, templates: NewTemplate[], now: string): Promise<boolean>;
  /** Replaces all templates of an existing person; returns false if the person is unknown. */
  replaceTemplates(extId: string, templates: NewTemplate[], now: string): Promise<boolean>;
  /** Appends templates, creating the person if needed; returns the person as written (all its templates), read in the same transaction. */
  appendTemplates(extId: string, templates: NewTemplate[], now: string): Promise<PersonRecord>;
  delete(extId: string): Promise<boolean>;
  /** Persons in a stable order (createdAt, extId), with their templates. */
  page(offset: number, limit: number): Promise<PersonRecord[]>;
  /** Every person's templates, for loading a 1:N gallery. */
  allTemplates(): Promise<Array<{ extId: string; templates: Uint8Array[] }>>;

  // Maintenance (`biostation keys migrate`): template rows as stored, and in-place rewrites that are
  // not changes of the person (no revision, version or change-feed entry: the content is the same).

  /** Template rows with an id above `afterId`, in id order, at most `limit`, bytes exactly as stored. */
  storedTemplateRows(afterId: number, limit: number): Promise<StoredTemplateRow[]>;
  /**
   * Replaces the stored bytes of each row that still holds `expected` (compare-and-set: a write made
   * meanwhile wins), in one transaction; returns how many rows were rewritten.
   */
  rewriteTemplateRows(rows: Array<{ id: number; expected: Uint8Array; data: Uint8Array }>): Promise<number>;
  /** Makes space freed by deletes and rewrites unreadable on disk (SQLite: VACUUM, WAL truncated; PostgreSQL: VACUUM of the templates table). */
  compact(): Promise<void>;
  /**
   * A counter every successful write of this modality raises by exactly one. A 1:N gallery held in
   * memory compares it with the writes it has seen, to notice writes made elsewhere (another API
   * node on the same PostgreSQL server, another process on the same SQLite file).
   */
  revision(): Promise<number>;

  // Change feed for station sync (src/sync). Every write above also stamps the person with a new
  // version (hybrid logical clock) and a change sequence number; a delete leaves a tombstone.

  /** Changes (latest state of each person or tombstone) with a sequence number above `afterSeq`, in sequence order. */
  changes(afterSeq: number, limit: number): Promise<PersonChange[]>;
  /** How many changes lie above `afterSeq` (progress of a sync). */
  countChanges(afterSeq: number): Promise<number>;
  /**
   * Applies a change made on another station when its version is newer than what this store holds
   * for that ext_id (person or tombstone), in one transaction; the replica's clock moves past it.
   */
  applyChange(change: IncomingChange): Promise<ApplyOutcome>;
  /** applyChange for each change in order, all in one transaction (a sync page: one commit, not one per person). */
  applyChanges(changes: IncomingChange[]): Promise<ApplyOutcome[]>;
  /** Drops tombstones deleted before `before` (ISO time); returns how many. */
  purgeTombstones(before: string): Promise<number>;
  /** The version this store holds for an ext_id (the person's, else its tombstone's); undefined when neither. */
  versionOf(extId: string): Promise<string | undefined>;
}

/** One template row as stored (storedTemplateRows). */
export interface StoredTemplateRow {
  id: number;
  extId: string;
  data: Uint8Array;
}

/** A person's latest state or its tombstone, as the change feed gives it. */
export type PersonChange = IncomingChange & { seq: number };

export type IncomingChange =
  | { kind: 'upsert'; extId: string; version: string; createdAt: string; updatedAt: string; templates: NewTemplate[] }
  | { kind: 'delete'; extId: string; version: string; deletedAt: string; stationId: string };

/** created/updated/deleted: the person changed; tombstone: a delete recorded for a person unknown here; stale: this store already holds a newer version. */
export type ApplyOutcome = 'created' | 'updated' | 'deleted' | 'tombstone' | 'stale';

/** One pull from or push to a peer station (see src/sync). */
export interface SyncRecord {
  /** The peer's origin (scheme, host, port): never a path, user or password. */
  peerUrl: string;
  /** 'pull' or 'push'; older records are pulls. */
  direction?: 'pull' | 'push';
  startedAt: string;
  finishedAt: string;
  /** Persons read from the peer, by modality. */
  pulled: number;
  created: number;
  updated: number;
  /** Persons already as recent here, or whose templates this station cannot compare. */
  skipped: number;
  /** Persons deleted by a tombstone from the other side. */
  deleted?: number;
  /** Persons refused because their templates belong to another model version (counted in skipped too). */
  refused?: number;
  /** Why the pull stopped, when it failed; null on success. */
  error: string | null;
}

/** A change feed of station sync: the persons of a modality, or the persons' document records. */
export type SyncFeed = 'face' | 'finger' | 'document';

export interface SyncLogRepository {
  record(entry: SyncRecord): Promise<void>;
  /** The most recent pulls, newest first. */
  recent(limit: number): Promise<SyncRecord[]>;
  /** Resume point of a sync with a peer, per feed: the last change sequence number fully applied (0 when none). */
  checkpoint(peer: string, direction: 'pull' | 'push', modality: SyncFeed): Promise<number>;
  setCheckpoint(peer: string, direction: 'pull' | 'push', modality: SyncFeed, seq: number): Promise<void>;
}

/** The stores of one application. */
export interface TenantStore {
  readonly faces: PersonRepository;
  readonly fingers: PersonRepository;
  readonly syncLog: SyncLogRepository;
  /** Document records of the persons (src/store/documents.ts); absent in stores that keep none. */
  readonly documents?: import('./documents.js').DocumentRepository;
}

/** Opens (and caches) each application's store. The only way below HTTP to reach data. */
export interface TenantStoreProvider {
  forApplication(applicationId: string): Promise<TenantStore>;
  /** Where stored templates found unreadable are reported (one per store; runtime/unreadable-templates.ts); absent in hand-made test providers. */
  readonly unreadable?: import('../runtime/unreadable-templates.js').UnreadableTemplates;
  close(): Promise<void>;
}
