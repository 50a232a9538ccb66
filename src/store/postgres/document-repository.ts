import type { Pool, PoolClient } from 'pg';
import { hlcOfTimestamp, maxHlc } from '../../sync/hlc.js';
import { toBytes } from '../rows.js';
import type { DocumentApplyOutcome, DocumentChange, DocumentRepository, IncomingDocumentChange, StoredDocument } from '../documents.js';
import { clockPast, nextStamp } from './change-feed.js';
import { inTransaction, type PgMigration } from './schema.js';

/**
 * Tenant migration 4 (PostgreSQL): document records join the change feed, as in the SQLite store
 * (sqlite/document-repository.ts). `person_documents` (created on first use by the previous
 * version, so IF NOT EXISTS) gains `version` and `change_seq`; `document_tombstones` holds
 * deletes; the old trigger and its function go (the person repository calls followPersonDelete).
 */
export const PG_DOCUMENTS_MIGRATION: PgMigration = async (c, s) => {
  await c.query(`CREATE TABLE IF NOT EXISTS ${s}.person_documents (ext_id TEXT PRIMARY KEY, data BYTEA NOT NULL, updated_at TEXT NOT NULL)`);
  await c.query(`DROP TRIGGER IF EXISTS person_documents_follow_person ON ${s}.persons`);
  await c.query(`DROP FUNCTION IF EXISTS ${s}.person_documents_follow_person()`);
  await c.query(`ALTER TABLE ${s}.person_documents ADD COLUMN written BIGSERIAL, ADD COLUMN version TEXT NOT NULL DEFAULT '', ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0`);
  await c.query(`CREATE TABLE ${s}.document_tombstones (
    ext_id TEXT PRIMARY KEY, version TEXT NOT NULL, station_id TEXT NOT NULL, deleted_at TEXT NOT NULL, change_seq BIGINT NOT NULL)`);
  await c.query(`DELETE FROM ${s}.person_documents d WHERE NOT EXISTS (SELECT 1 FROM ${s}.persons p WHERE p.ext_id = d.ext_id)`);
  const clock = (await c.query<{ station_id: string; hlc: string; seq: string }>(`SELECT station_id, hlc, seq FROM ${s}.sync_clock FOR UPDATE`)).rows[0];
  let hlc = clock.hlc;
  let seq = Number(clock.seq);
  const { rows } = await c.query<{ ext_id: string; updated_at: string }>(`SELECT ext_id, updated_at FROM ${s}.person_documents ORDER BY written`);
  for (const r of rows) {
    const ms = Date.parse(r.updated_at);
    const version = hlcOfTimestamp(Number.isFinite(ms) && ms > 0 ? r.updated_at : new Date(0).toISOString(), clock.station_id);
    await c.query(`UPDATE ${s}.person_documents SET version = $1, change_seq = $2 WHERE ext_id = $3`, [version, ++seq, r.ext_id]);
    hlc = maxHlc(hlc, version);
  }
  await c.query(`UPDATE ${s}.sync_clock SET hlc = $1, seq = $2`, [hlc, seq]);
  await c.query(`CREATE INDEX ON ${s}.person_documents (change_seq)`);
  await c.query(`CREATE INDEX ON ${s}.document_tombstones (change_seq)`);
};

/**
 * Called by the person repository inside the transaction that deleted a person row: when no face
 * or fingerprint person with that ext_id is left, its document record goes and a document
 * tombstone carrying the person delete's version is written.
 */
export async function followPersonDelete(c: PoolClient, schema: string, extId: string, version: string, stationId: string, deletedAt: string): Promise<void> {
  if ((await c.query(`SELECT 1 FROM ${schema}.persons WHERE modality IN ('face', 'finger') AND ext_id = $1`, [extId])).rows.length > 0) return;
  if (((await c.query(`DELETE FROM ${schema}.person_documents WHERE ext_id = $1`, [extId])).rowCount ?? 0) === 0) return;
  await writeTombstone(c, schema, extId, version, stationId, deletedAt, await clockPast(c, schema, version));
}

async function writeTombstone(c: PoolClient, schema: string, extId: string, version: string, stationId: string, deletedAt: string, seq: number): Promise<void> {
  await c.query(
    `INSERT INTO ${schema}.document_tombstones (ext_id, version, station_id, deleted_at, change_seq) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (ext_id) DO UPDATE SET version = excluded.version, station_id = excluded.station_id, deleted_at = excluded.deleted_at, change_seq = excluded.change_seq`,
    [extId, version, stationId, deletedAt, seq],
  );
}

interface Row {
  ext_id: string;
  data: Buffer;
  updated_at: string;
  version: string;
}

/** PostgreSQL: tables `<schema>.person_documents` and `<schema>.document_tombstones` (tenant migration 4). */
export class PgDocumentRepository implements DocumentRepository {
  private readonly docs: string;
  private readonly tombs: string;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {
    this.docs = `${schema}.person_documents`;
    this.tombs = `${schema}.document_tombstones`;
  }

  async put(extId: string, data: Uint8Array, now: string): Promise<boolean> {
    return inTransaction(this.pool, async (c) => {
      // The clock row lock first: a person delete takes it too, so the check below reads the
      // persons as they are after any delete ordered before this write (read committed: each
      // statement sees what committed before it), and a delete ordered after it finds the record.
      await c.query(`SELECT 1 FROM ${this.schema}.sync_clock FOR UPDATE`);
      if (!(await this.personExists(extId, c))) return false;
      const stamp = await nextStamp(c, this.schema);
      await c.query(`DELETE FROM ${this.tombs} WHERE ext_id = $1`, [extId]);
      await this.upsert(c, extId, data, now, stamp.version, stamp.seq);
      return true;
    });
  }

  async get(extId: string): Promise<StoredDocument | undefined> {
    const row = (await this.pool.query<Row>(`SELECT ext_id, data, updated_at, version FROM ${this.docs} WHERE ext_id = $1`, [extId])).rows[0];
    return row && { data: toBytes(row.data), updatedAt: row.updated_at, version: row.version };
  }

  async getMany(extIds: string[]): Promise<Map<string, StoredDocument>> {
    const out = new Map<string, StoredDocument>();
    if (extIds.length === 0) return out;
    const { rows } = await this.pool.query<Row>(`SELECT ext_id, data, updated_at, version FROM ${this.docs} WHERE ext_id = ANY($1)`, [extIds]);
    for (const r of rows) out.set(r.ext_id, { data: toBytes(r.data), updatedAt: r.updated_at, version: r.version });
    return out;
  }

  async delete(extId: string): Promise<boolean> {
    return inTransaction(this.pool, async (c) => {
      if (((await c.query(`DELETE FROM ${this.docs} WHERE ext_id = $1`, [extId])).rowCount ?? 0) === 0) return false;
      const stamp = await nextStamp(c, this.schema);
      await writeTombstone(c, this.schema, extId, stamp.version, stamp.stationId, new Date().toISOString(), stamp.seq);
      return true;
    });
  }

  async count(): Promise<number> {
    return Number((await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.docs}`)).rows[0].n);
  }

  async page(offset: number, limit: number): Promise<Array<StoredDocument & { extId: string }>> {
    const { rows } = await this.pool.query<Row>(`SELECT ext_id, data, updated_at, version FROM ${this.docs} ORDER BY written LIMIT $1 OFFSET $2`, [limit, offset]);
    return rows.map((r) => ({ extId: r.ext_id, data: toBytes(r.data), updatedAt: r.updated_at, version: r.version }));
  }

  async changes(afterSeq: number, limit: number): Promise<DocumentChange[]> {
    const { rows } = await this.pool.query<{ kind: 'upsert' | 'delete'; ext_id: string; version: string; seq: string; data: Buffer | null; updated_at: string | null; deleted_at: string | null; station_id: string | null }>(
      `SELECT 'upsert' AS kind, ext_id, version, change_seq AS seq, data, updated_at, NULL AS deleted_at, NULL AS station_id
         FROM ${this.docs} WHERE change_seq > $1
       UNION ALL
       SELECT 'delete', ext_id, version, change_seq, NULL, NULL, deleted_at, station_id
         FROM ${this.tombs} WHERE change_seq > $1
       ORDER BY seq LIMIT $2`,
      [afterSeq, limit],
    );
    return rows.map((r) =>
      r.kind === 'upsert'
        ? { kind: 'upsert', seq: Number(r.seq), extId: r.ext_id, version: r.version, updatedAt: r.updated_at!, data: toBytes(r.data!) }
        : { kind: 'delete', seq: Number(r.seq), extId: r.ext_id, version: r.version, deletedAt: r.deleted_at!, stationId: r.station_id! },
    );
  }

  async countChanges(afterSeq: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM ${this.docs} WHERE change_seq > $1) + (SELECT count(*) FROM ${this.tombs} WHERE change_seq > $1) AS n`,
      [afterSeq],
    );
    return Number(rows[0].n);
  }

  async lastSeq(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT GREATEST(coalesce((SELECT max(change_seq) FROM ${this.docs}), 0), coalesce((SELECT max(change_seq) FROM ${this.tombs}), 0)) AS n`,
    );
    return Number(rows[0].n);
  }

  async applyChanges(changes: IncomingDocumentChange[]): Promise<DocumentApplyOutcome[]> {
    return inTransaction(this.pool, async (c) => {
      // The clock row lock serialises this with every other write of the application (persons' too).
      await c.query(`SELECT 1 FROM ${this.schema}.sync_clock FOR UPDATE`);
      const outcomes: DocumentApplyOutcome[] = [];
      for (const change of changes) outcomes.push(await this.applyOne(c, change));
      return outcomes;
    });
  }

  private async applyOne(c: PoolClient, change: IncomingDocumentChange): Promise<DocumentApplyOutcome> {
    const doc = (await c.query<{ version: string }>(`SELECT version FROM ${this.docs} WHERE ext_id = $1`, [change.extId])).rows[0];
    const tomb = doc ? undefined : (await c.query<{ version: string }>(`SELECT version FROM ${this.tombs} WHERE ext_id = $1`, [change.extId])).rows[0];
    if (change.version <= (doc?.version ?? tomb?.version ?? '')) return 'stale';
    if (change.kind === 'delete') {
      const seq = await clockPast(c, this.schema, change.version);
      await writeTombstone(c, this.schema, change.extId, change.version, change.stationId, change.deletedAt, seq);
      if (!doc) return 'tombstone';
      await c.query(`DELETE FROM ${this.docs} WHERE ext_id = $1`, [change.extId]);
      return 'deleted';
    }
    if (!(await this.personExists(change.extId, c))) return 'refused';
    const seq = await clockPast(c, this.schema, change.version);
    await c.query(`DELETE FROM ${this.tombs} WHERE ext_id = $1`, [change.extId]);
    await this.upsert(c, change.extId, change.data, change.updatedAt, change.version, seq);
    return doc ? 'updated' : 'created';
  }

  async versionOf(extId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ version: string }>(
      `SELECT version FROM ${this.docs} WHERE ext_id = $1 UNION ALL SELECT version FROM ${this.tombs} WHERE ext_id = $1`,
      [extId],
    );
    return rows[0]?.version;
  }

  async personExists(extId: string, client: Pool | PoolClient = this.pool): Promise<boolean> {
    const { rows } = await client.query(`SELECT 1 FROM ${this.schema}.persons WHERE modality IN ('face', 'finger') AND ext_id = $1`, [extId]);
    return rows.length > 0;
  }

  async purgeTombstones(before: string): Promise<number> {
    return (await this.pool.query(`DELETE FROM ${this.tombs} WHERE deleted_at < $1`, [before])).rowCount ?? 0;
  }

  private async upsert(c: PoolClient, extId: string, data: Uint8Array, updatedAt: string, version: string, seq: number): Promise<void> {
    await c.query(
      `INSERT INTO ${this.docs} (ext_id, data, updated_at, version, change_seq) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (ext_id) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at, version = EXCLUDED.version, change_seq = EXCLUDED.change_seq`,
      [extId, Buffer.from(data), updatedAt, version, seq],
    );
  }
}
