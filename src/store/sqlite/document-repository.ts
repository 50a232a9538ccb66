import { hlcOfTimestamp, maxHlc } from '../../sync/hlc.js';
import { toBytes } from '../rows.js';
import type { DocumentApplyOutcome, DocumentChange, DocumentRepository, IncomingDocumentChange, StoredDocument } from '../documents.js';
import { clockPast, nextStamp } from './change-feed.js';
import type { Migration, SqliteDatabase } from './database.js';

/**
 * Tenant migration 5: document records join the change feed (src/store/documents.ts). The table
 * `person_documents` (created on first use by the previous version, so IF NOT EXISTS) gains
 * `version` and `change_seq`; `document_tombstones` holds deletes. The old trigger that removed a
 * record with its person goes: the person repository now does it (followPersonDelete), leaving a
 * tombstone. Records already there get a version from their `updated_at` and sequence numbers
 * from the application's sync clock, in write order.
 */
export const DOCUMENTS_MIGRATION: Migration = (db) => {
  db.exec(`
    CREATE TABLE IF NOT EXISTS person_documents (ext_id TEXT PRIMARY KEY, data BLOB NOT NULL, updated_at TEXT NOT NULL);
    DROP TRIGGER IF EXISTS person_documents_follow_person;
    ALTER TABLE person_documents ADD COLUMN version TEXT NOT NULL DEFAULT '';
    ALTER TABLE person_documents ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE document_tombstones (
      ext_id TEXT PRIMARY KEY, version TEXT NOT NULL, station_id TEXT NOT NULL, deleted_at TEXT NOT NULL, change_seq INTEGER NOT NULL
    );
    DELETE FROM person_documents WHERE NOT EXISTS (SELECT 1 FROM persons WHERE persons.ext_id = person_documents.ext_id);
  `);
  const clock = db.prepare('SELECT station_id, hlc, seq FROM sync_clock').get() as { station_id: string; hlc: string; seq: number };
  let { hlc, seq } = clock;
  const rows = db.prepare('SELECT rowid AS id, updated_at FROM person_documents ORDER BY rowid').all() as Array<{ id: number; updated_at: string }>;
  const update = db.prepare('UPDATE person_documents SET version = ?, change_seq = ? WHERE rowid = ?');
  for (const r of rows) {
    const ms = Date.parse(r.updated_at);
    const version = hlcOfTimestamp(Number.isFinite(ms) && ms > 0 ? r.updated_at : new Date(0).toISOString(), clock.station_id);
    update.run(version, ++seq, r.id);
    hlc = maxHlc(hlc, version);
  }
  db.prepare('UPDATE sync_clock SET hlc = ?, seq = ?').run(hlc, seq);
  db.exec('CREATE INDEX person_documents_by_change ON person_documents (change_seq); CREATE INDEX document_tombstones_by_change ON document_tombstones (change_seq);');
};

/**
 * Called by the person repository inside the transaction that deleted a person row (a local
 * DELETE or a peer's tombstone): when no face or fingerprint person with that ext_id is left, its
 * document record goes and a document tombstone carrying the person delete's version is written.
 */
export function followPersonDelete(db: SqliteDatabase, extId: string, version: string, stationId: string, deletedAt: string): void {
  if (db.prepare("SELECT 1 FROM persons WHERE modality IN ('face', 'finger') AND ext_id = ?").get(extId)) return;
  if (db.prepare('DELETE FROM person_documents WHERE ext_id = ?').run(extId).changes === 0) return;
  writeTombstone(db, extId, version, stationId, deletedAt, clockPast(db, version));
}

function writeTombstone(db: SqliteDatabase, extId: string, version: string, stationId: string, deletedAt: string, seq: number): void {
  db.prepare(
    `INSERT INTO document_tombstones (ext_id, version, station_id, deleted_at, change_seq) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (ext_id) DO UPDATE SET version = excluded.version, station_id = excluded.station_id, deleted_at = excluded.deleted_at, change_seq = excluded.change_seq`,
  ).run(extId, version, stationId, deletedAt, seq);
}

interface Row {
  ext_id: string;
  data: Buffer;
  updated_at: string;
  version: string;
}

interface FeedRow {
  kind: 'upsert' | 'delete';
  ext_id: string;
  version: string;
  seq: number;
  data: Buffer | null;
  updated_at: string | null;
  deleted_at: string | null;
  station_id: string | null;
}

/** SQLite: tables `person_documents` and `document_tombstones` in the application's database file (migration 5). */
export class SqliteDocumentRepository implements DocumentRepository {
  constructor(private readonly db: SqliteDatabase) {}

  async put(extId: string, data: Uint8Array, now: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (!this.personExistsNow(extId)) return false;
      const stamp = nextStamp(this.db);
      this.db.prepare('DELETE FROM document_tombstones WHERE ext_id = ?').run(extId);
      this.upsert(extId, data, now, stamp.version, stamp.seq);
      return true;
    }).immediate();
  }

  async get(extId: string): Promise<StoredDocument | undefined> {
    const row = this.db.prepare('SELECT ext_id, data, updated_at, version FROM person_documents WHERE ext_id = ?').get(extId) as Row | undefined;
    return row && { data: toBytes(row.data), updatedAt: row.updated_at, version: row.version };
  }

  async getMany(extIds: string[]): Promise<Map<string, StoredDocument>> {
    const select = this.db.prepare('SELECT ext_id, data, updated_at, version FROM person_documents WHERE ext_id = ?');
    const out = new Map<string, StoredDocument>();
    for (const extId of extIds) {
      const row = select.get(extId) as Row | undefined;
      if (row) out.set(extId, { data: toBytes(row.data), updatedAt: row.updated_at, version: row.version });
    }
    return out;
  }

  async delete(extId: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.db.prepare('DELETE FROM person_documents WHERE ext_id = ?').run(extId).changes === 0) return false;
      const stamp = nextStamp(this.db);
      writeTombstone(this.db, extId, stamp.version, stamp.stationId, new Date().toISOString(), stamp.seq);
      return true;
    }).immediate();
  }

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM person_documents').get() as { n: number }).n;
  }

  async page(offset: number, limit: number): Promise<Array<StoredDocument & { extId: string }>> {
    const rows = this.db.prepare('SELECT ext_id, data, updated_at, version FROM person_documents ORDER BY rowid LIMIT ? OFFSET ?').all(limit, offset) as Row[];
    return rows.map((r) => ({ extId: r.ext_id, data: toBytes(r.data), updatedAt: r.updated_at, version: r.version }));
  }

  async changes(afterSeq: number, limit: number): Promise<DocumentChange[]> {
    const rows = this.db
      .prepare(
        `SELECT 'upsert' AS kind, ext_id, version, change_seq AS seq, data, updated_at, NULL AS deleted_at, NULL AS station_id
           FROM person_documents WHERE change_seq > ?
         UNION ALL
         SELECT 'delete', ext_id, version, change_seq, NULL, NULL, deleted_at, station_id
           FROM document_tombstones WHERE change_seq > ?
         ORDER BY seq LIMIT ?`,
      )
      .all(afterSeq, afterSeq, limit) as FeedRow[];
    return rows.map((r) =>
      r.kind === 'upsert'
        ? { kind: 'upsert', seq: r.seq, extId: r.ext_id, version: r.version, updatedAt: r.updated_at!, data: toBytes(r.data!) }
        : { kind: 'delete', seq: r.seq, extId: r.ext_id, version: r.version, deletedAt: r.deleted_at!, stationId: r.station_id! },
    );
  }

  async countChanges(afterSeq: number): Promise<number> {
    return (this.db.prepare('SELECT (SELECT count(*) FROM person_documents WHERE change_seq > ?) + (SELECT count(*) FROM document_tombstones WHERE change_seq > ?) AS n').get(afterSeq, afterSeq) as { n: number }).n;
  }

  async lastSeq(): Promise<number> {
    return (this.db.prepare('SELECT max(coalesce((SELECT max(change_seq) FROM person_documents), 0), coalesce((SELECT max(change_seq) FROM document_tombstones), 0)) AS n').get() as { n: number }).n;
  }

  async applyChanges(changes: IncomingDocumentChange[]): Promise<DocumentApplyOutcome[]> {
    return this.db.transaction(() => changes.map((c) => this.applyOne(c))).immediate();
  }

  private applyOne(change: IncomingDocumentChange): DocumentApplyOutcome {
    const doc = this.db.prepare('SELECT version FROM person_documents WHERE ext_id = ?').get(change.extId) as { version: string } | undefined;
    const tomb = doc ? undefined : (this.db.prepare('SELECT version FROM document_tombstones WHERE ext_id = ?').get(change.extId) as { version: string } | undefined);
    if (change.version <= (doc?.version ?? tomb?.version ?? '')) return 'stale';
    if (change.kind === 'delete') {
      const seq = clockPast(this.db, change.version);
      writeTombstone(this.db, change.extId, change.version, change.stationId, change.deletedAt, seq);
      if (!doc) return 'tombstone';
      this.db.prepare('DELETE FROM person_documents WHERE ext_id = ?').run(change.extId);
      return 'deleted';
    }
    if (!this.personExistsNow(change.extId)) return 'refused';
    const seq = clockPast(this.db, change.version);
    this.db.prepare('DELETE FROM document_tombstones WHERE ext_id = ?').run(change.extId);
    this.upsert(change.extId, change.data, change.updatedAt, change.version, seq);
    return doc ? 'updated' : 'created';
  }

  async versionOf(extId: string): Promise<string | undefined> {
    const row = this.db
      .prepare('SELECT version FROM person_documents WHERE ext_id = ? UNION ALL SELECT version FROM document_tombstones WHERE ext_id = ?')
      .get(extId, extId) as { version: string } | undefined;
    return row?.version;
  }

  async personExists(extId: string): Promise<boolean> {
    return this.personExistsNow(extId);
  }

  async purgeTombstones(before: string): Promise<number> {
    return this.db.prepare('DELETE FROM document_tombstones WHERE deleted_at < ?').run(before).changes;
  }

  private personExistsNow(extId: string): boolean {
    return this.db.prepare("SELECT 1 FROM persons WHERE modality IN ('face', 'finger') AND ext_id = ?").get(extId) !== undefined;
  }

  private upsert(extId: string, data: Uint8Array, updatedAt: string, version: string, seq: number): void {
    this.db
      .prepare(
        `INSERT INTO person_documents (ext_id, data, updated_at, version, change_seq) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (ext_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at, version = excluded.version, change_seq = excluded.change_seq`,
      )
      .run(extId, Buffer.from(data), updatedAt, version, seq);
  }
}
