import Database from 'better-sqlite3';
import type { Pool } from 'pg';
import { createOnce } from '../store/postgres/create-once.js';

/**
 * One biometric operation as the audit trail keeps it: who (application), what (operation), on
 * whom (ext_id as configured: an HMAC pseudonym by default), how it ended, when, and the request
 * id that ties it to the request log. Never an image, a template or a score.
 */
export interface AuditEntry {
  /** ISO 8601 UTC with milliseconds. */
  at: string;
  requestId: string;
  applicationId: string | null;
  /** e.g. face.enroll, finger.identify, ocr.process-cnh. */
  operation: string;
  /** The ext_id of the request (or the one identified), hashed, in clear or null, per configuration. */
  extId: string | null;
  httpStatus: number;
  /** The spec's result code when the answer has one (1000..1047), else null. */
  resultCode: number | null;
}

export interface AuditQuery {
  since?: string;
  until?: string;
  applicationId?: string;
  limit?: number;
}

/** Append-only storage of the audit trail: entries are inserted, never updated or deleted (the database refuses both). */
export interface AuditStore {
  append(entries: AuditEntry[]): Promise<void>;
  query(q: AuditQuery): Promise<Array<AuditEntry & { seq: number }>>;
  close(): Promise<void>;
}

interface Row {
  seq: number;
  at: string;
  request_id: string;
  application_id: string | null;
  operation: string;
  ext_id: string | null;
  http_status: number;
  result_code: number | null;
}

const toEntry = (r: Row) => ({
  seq: Number(r.seq),
  at: r.at,
  requestId: r.request_id,
  applicationId: r.application_id,
  operation: r.operation,
  extId: r.ext_id,
  httpStatus: Number(r.http_status),
  resultCode: r.result_code === null ? null : Number(r.result_code),
});

/** Table `audit_log` of the SQLite registry (`station.db`), on its own connection; triggers make it append-only. */
export class SqliteAuditStore implements AuditStore {
  private readonly db: Database.Database;

  constructor(registryFile: string) {
    this.db = new Database(registryFile);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS audit_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        request_id TEXT NOT NULL,
        application_id TEXT,
        operation TEXT NOT NULL,
        ext_id TEXT,
        http_status INTEGER NOT NULL,
        result_code INTEGER
      );
      CREATE INDEX IF NOT EXISTS audit_log_at ON audit_log (at);
      CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
      CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
    `);
  }

  async append(entries: AuditEntry[]): Promise<void> {
    const insert = this.db.prepare('INSERT INTO audit_log (at, request_id, application_id, operation, ext_id, http_status, result_code) VALUES (?, ?, ?, ?, ?, ?, ?)');
    this.db.transaction(() => {
      for (const e of entries) insert.run(e.at, e.requestId, e.applicationId, e.operation, e.extId, e.httpStatus, e.resultCode);
    })();
  }

  async query(q: AuditQuery) {
    const rows = this.db
      .prepare(
        `SELECT * FROM audit_log WHERE at >= ? AND at < ? AND (? IS NULL OR application_id = ?) ORDER BY seq LIMIT ?`,
      )
      .all(q.since ?? '', q.until ?? '\uffff', q.applicationId ?? null, q.applicationId ?? null, q.limit ?? 1_000_000) as Row[];
    return rows.map(toEntry);
  }

  async close(): Promise<void> {
    this.db.close();
  }
}

/** Table `<registry schema>.audit_log` in PostgreSQL; a trigger refuses UPDATE and DELETE. */
export class PgAuditStore implements AuditStore {
  private readonly init: () => Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {
    const s = schema;
    // createOnce: API nodes starting together create the table once (IF NOT EXISTS alone races).
    this.init = createOnce(pool, `${s}.audit_log`, `
      CREATE TABLE IF NOT EXISTS ${s}.audit_log (
        seq BIGSERIAL PRIMARY KEY,
        at TEXT NOT NULL,
        request_id TEXT NOT NULL,
        application_id TEXT,
        operation TEXT NOT NULL,
        ext_id TEXT,
        http_status INTEGER NOT NULL,
        result_code INTEGER
      );
      CREATE INDEX IF NOT EXISTS audit_log_at ON ${s}.audit_log (at);
      CREATE OR REPLACE FUNCTION ${s}.audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS
        $$ BEGIN RAISE EXCEPTION 'audit_log is append-only'; END $$;
      DROP TRIGGER IF EXISTS audit_log_append_only ON ${s}.audit_log;
      CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON ${s}.audit_log FOR EACH ROW EXECUTE FUNCTION ${s}.audit_log_append_only();
    `);
  }

  async append(entries: AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.init();
    const values: unknown[] = [];
    const tuples = entries.map((e, i) => {
      values.push(e.at, e.requestId, e.applicationId, e.operation, e.extId, e.httpStatus, e.resultCode);
      return `($${i * 7 + 1}, $${i * 7 + 2}, $${i * 7 + 3}, $${i * 7 + 4}, $${i * 7 + 5}, $${i * 7 + 6}, $${i * 7 + 7})`;
    });
    await this.pool.query(
      `INSERT INTO ${this.schema}.audit_log (at, request_id, application_id, operation, ext_id, http_status, result_code) VALUES ${tuples.join(', ')}`,
      values,
    );
  }

  async query(q: AuditQuery) {
    await this.init();
    const { rows } = await this.pool.query<Row>(
      `SELECT * FROM ${this.schema}.audit_log WHERE at >= $1 AND at < $2 AND ($3::text IS NULL OR application_id = $3) ORDER BY seq LIMIT $4`,
      [q.since ?? '', q.until ?? '\uffff', q.applicationId ?? null, q.limit ?? 1_000_000],
    );
    return rows.map(toEntry);
  }

  async close(): Promise<void> {
    /* the pool belongs to the store */
  }
}
