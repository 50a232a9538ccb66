/**
 * A person's document record (issue #16, finding 7): the CNH fields the clerk confirmed at
 * enrollment and the card-photo <-> live-face result, as one opaque blob per ext_id in the
 * application's store (never an image). The service (src/services/person-documents.ts) gives the
 * blob its JSON shape; EncryptingTenantStoreProvider wraps the repository with `encryptingDocuments`
 * so the blob is sealed with the application's data key like templates.
 *
 * Deleted with the person: a trigger on the persons table removes the record once the ext_id has
 * no face and no fingerprint person left, whichever way the person went (DELETE of the API, a sync
 * tombstone applied by src/sync). The table and trigger are created on first use (IF NOT EXISTS),
 * beside the person tables, in the SQLite file / PostgreSQL schema of the application.
 */
import type { Pool } from 'pg';
import { decryptTemplate, encryptTemplate } from './encryption/encrypting-store.js';
import type { SqliteDatabase } from './sqlite/database.js';

/** One stored document record: the (possibly sealed) bytes and when they were written (ISO 8601 UTC). */
export interface StoredDocument {
  data: Uint8Array;
  updatedAt: string;
}

/** Document records of one application, one per ext_id. */
export interface DocumentRepository {
  /** Creates or replaces the record of `extId`. */
  put(extId: string, data: Uint8Array, now: string): Promise<void>;
  get(extId: string): Promise<StoredDocument | undefined>;
  /** Returns false when there was none. */
  delete(extId: string): Promise<boolean>;
}

const toBytes = (b: Buffer | Uint8Array): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);

/** SQLite: table `person_documents` in the application's database file. */
export class SqliteDocumentRepository implements DocumentRepository {
  constructor(private readonly db: SqliteDatabase) {
    db.exec(`
      CREATE TABLE IF NOT EXISTS person_documents (ext_id TEXT PRIMARY KEY, data BLOB NOT NULL, updated_at TEXT NOT NULL);
      CREATE TRIGGER IF NOT EXISTS person_documents_follow_person AFTER DELETE ON persons
        WHEN NOT EXISTS (SELECT 1 FROM persons WHERE ext_id = OLD.ext_id)
        BEGIN DELETE FROM person_documents WHERE ext_id = OLD.ext_id; END;
    `);
  }

  async put(extId: string, data: Uint8Array, now: string): Promise<void> {
    this.db
      .prepare('INSERT INTO person_documents (ext_id, data, updated_at) VALUES (?, ?, ?) ON CONFLICT (ext_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at')
      .run(extId, Buffer.from(data), now);
  }

  async get(extId: string): Promise<StoredDocument | undefined> {
    const row = this.db.prepare('SELECT data, updated_at FROM person_documents WHERE ext_id = ?').get(extId) as { data: Buffer; updated_at: string } | undefined;
    return row && { data: toBytes(row.data), updatedAt: row.updated_at };
  }

  async delete(extId: string): Promise<boolean> {
    return this.db.prepare('DELETE FROM person_documents WHERE ext_id = ?').run(extId).changes > 0;
  }
}

/** PostgreSQL: table `<schema>.person_documents` in the application's schema. */
export class PgDocumentRepository implements DocumentRepository {
  private ready: Promise<void> | null = null;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {}

  private ensure(): Promise<void> {
    const s = this.schema;
    this.ready ??= (async () => {
      const client = await this.pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock(hashtext($1))', [`biostation:documents:${s}`]);
        try {
          await client.query(`CREATE TABLE IF NOT EXISTS ${s}.person_documents (ext_id TEXT PRIMARY KEY, data BYTEA NOT NULL, updated_at TEXT NOT NULL)`);
          await client.query(`CREATE OR REPLACE FUNCTION ${s}.person_documents_follow_person() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
              IF NOT EXISTS (SELECT 1 FROM ${s}.persons WHERE ext_id = OLD.ext_id) THEN
                DELETE FROM ${s}.person_documents WHERE ext_id = OLD.ext_id;
              END IF;
              RETURN NULL;
            END $$`);
          await client.query(`DROP TRIGGER IF EXISTS person_documents_follow_person ON ${s}.persons`);
          await client.query(`CREATE TRIGGER person_documents_follow_person AFTER DELETE ON ${s}.persons FOR EACH ROW EXECUTE FUNCTION ${s}.person_documents_follow_person()`);
        } finally {
          await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`biostation:documents:${s}`]);
        }
      } finally {
        client.release();
      }
    })();
    this.ready.catch(() => {
      this.ready = null;
    });
    return this.ready;
  }

  async put(extId: string, data: Uint8Array, now: string): Promise<void> {
    await this.ensure();
    await this.pool.query(
      `INSERT INTO ${this.schema}.person_documents (ext_id, data, updated_at) VALUES ($1, $2, $3) ON CONFLICT (ext_id) DO UPDATE SET data = EXCLUDED.data, updated_at = EXCLUDED.updated_at`,
      [extId, Buffer.from(data), now],
    );
  }

  async get(extId: string): Promise<StoredDocument | undefined> {
    await this.ensure();
    const res = await this.pool.query(`SELECT data, updated_at FROM ${this.schema}.person_documents WHERE ext_id = $1`, [extId]);
    const row = res.rows[0] as { data: Buffer; updated_at: string } | undefined;
    return row && { data: toBytes(row.data), updatedAt: row.updated_at };
  }

  async delete(extId: string): Promise<boolean> {
    await this.ensure();
    const res = await this.pool.query(`DELETE FROM ${this.schema}.person_documents WHERE ext_id = $1`, [extId]);
    return (res.rowCount ?? 0) > 0;
  }
}

/**
 * The repository with its records sealed under the application's data key: AES-256-GCM, the same
 * format as templates (encrypting-store.ts), associated data `applicationId \0 document \0 ext_id`
 * (a record moved to another person or application fails to open). Records written without
 * encryption are read as they are.
 */
export function encryptingDocuments(inner: DocumentRepository, applicationId: string, dataKey: Buffer): DocumentRepository {
  const aad = (extId: string) => Buffer.from(`${applicationId}\0document\0${extId}`, 'utf8');
  return {
    put: (extId, data, now) => inner.put(extId, encryptTemplate(dataKey, aad(extId), data), now),
    async get(extId) {
      const row = await inner.get(extId);
      return row && { ...row, data: decryptTemplate(dataKey, aad(extId), row.data) };
    },
    delete: (extId) => inner.delete(extId),
  };
}
