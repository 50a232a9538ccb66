import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Pool } from 'pg';
import Database from 'better-sqlite3';
import type { MasterKey } from './master-key.js';
import { createOnce } from '../postgres/create-once.js';

/** One application's data key as stored: wrapped (AES-256-GCM) by the master key `masterKeyId`. */
export interface WrappedDataKey {
  applicationId: string;
  masterKeyId: string;
  /** iv (12) | ciphertext (32) | tag (16). */
  wrapped: Buffer;
  createdAt: string;
}

/** Storage of wrapped data keys, beside the registry of applications (its own table, created on first use). */
export interface WrappedKeyStore {
  get(applicationId: string): Promise<WrappedDataKey | undefined>;
  /** Inserts unless a key exists (two nodes racing keep the first); returns the stored one. */
  insert(key: WrappedDataKey): Promise<WrappedDataKey>;
  all(): Promise<WrappedDataKey[]>;
  /** Replaces the wrapping of every given key in one transaction. */
  rewrap(keys: WrappedDataKey[]): Promise<void>;
  close(): Promise<void>;
}

const DATA_KEY_BYTES = 32;
const wrapAad = (applicationId: string) => Buffer.from(`biostation:data-key:v1:${applicationId}`);

function wrap(master: MasterKey, applicationId: string, dataKey: Buffer): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', master.key, iv);
  cipher.setAAD(wrapAad(applicationId));
  const ct = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([iv, ct, cipher.getAuthTag()]);
}

function unwrap(master: MasterKey, applicationId: string, wrapped: Buffer): Buffer {
  const decipher = createDecipheriv('aes-256-gcm', master.key, wrapped.subarray(0, 12));
  decipher.setAAD(wrapAad(applicationId));
  decipher.setAuthTag(wrapped.subarray(wrapped.length - 16));
  return Buffer.concat([decipher.update(wrapped.subarray(12, wrapped.length - 16)), decipher.final()]);
}

/**
 * Per-application data keys (256 bits, random), each wrapped by the station master key with
 * AES-256-GCM (the application id is the associated data, so a wrapped key cannot be moved to
 * another application). Unwrapped keys live only in memory.
 */
export class Keyring {
  private readonly cache = new Map<string, Promise<Buffer>>();

  private masterKeys: MasterKey[];

  /**
   * `masterKeys()` gives the loaded master keys: the first wraps new data keys, every one unwraps
   * (a rotation in progress has two). It is called again before a new data key is wrapped or when
   * a stored key names a master key not loaded, so a station keeps working across a `keys rotate`
   * run by the CLI while it serves.
   */
  constructor(
    private readonly store: WrappedKeyStore,
    private readonly loadMasterKeys: () => MasterKey[],
  ) {
    this.masterKeys = loadMasterKeys();
    if (this.masterKeys.length === 0) throw new Error('the keyring needs a master key');
  }

  /** The id of the master key that wraps new data keys. */
  get currentMasterKeyId(): string {
    return this.masterKeys[0].id;
  }

  /** The application's data key, created and stored wrapped on first use. @throws Error when no loaded master key unwraps it */
  dataKey(applicationId: string): Promise<Buffer> {
    let key = this.cache.get(applicationId);
    if (!key) {
      key = this.load(applicationId);
      key.catch(() => this.cache.delete(applicationId));
      this.cache.set(applicationId, key);
    }
    return key;
  }

  private async load(applicationId: string): Promise<Buffer> {
    let stored = await this.store.get(applicationId);
    if (!stored) {
      this.masterKeys = this.loadMasterKeys();
      const master = this.masterKeys[0];
      stored = await this.store.insert({
        applicationId,
        masterKeyId: master.id,
        wrapped: wrap(master, applicationId, randomBytes(DATA_KEY_BYTES)),
        createdAt: new Date().toISOString(),
      });
    }
    if (!this.masterKeys.some((m) => m.id === stored.masterKeyId)) this.masterKeys = this.loadMasterKeys();
    const master = this.masterKeys.find((m) => m.id === stored.masterKeyId);
    if (!master) throw new Error(`the data key of application ${applicationId} is wrapped by master key ${stored.masterKeyId}, which is not loaded`);
    return unwrap(master, applicationId, stored.wrapped);
  }

  /**
   * Wraps every data key by `next` (unwrapping with whichever loaded key wrapped it), in one
   * transaction. Data keys, and so every stored template, are unchanged: no re-encryption, no
   * downtime. Returns how many keys were re-wrapped.
   */
  async rewrapAll(next: MasterKey): Promise<number> {
    const all = await this.store.all();
    const rewrapped = all.map((k) => {
      const master = [...this.masterKeys, next].find((m) => m.id === k.masterKeyId);
      if (!master) throw new Error(`the data key of application ${k.applicationId} is wrapped by master key ${k.masterKeyId}, which is not loaded`);
      return { ...k, masterKeyId: next.id, wrapped: wrap(next, k.applicationId, unwrap(master, k.applicationId, k.wrapped)) };
    });
    await this.store.rewrap(rewrapped);
    return rewrapped.length;
  }

  close(): Promise<void> {
    return this.store.close();
  }
}

interface KeyRow {
  application_id: string;
  master_key_id: string;
  wrapped: Buffer;
  created_at: string;
}
const toKey = (r: KeyRow): WrappedDataKey => ({ applicationId: r.application_id, masterKeyId: r.master_key_id, wrapped: Buffer.from(r.wrapped), createdAt: r.created_at });

/** Wrapped keys in table `data_keys` of the SQLite registry (`station.db`), on a connection of its own. */
export class SqliteWrappedKeyStore implements WrappedKeyStore {
  private readonly db: Database.Database;

  constructor(registryFile: string) {
    this.db = new Database(registryFile);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`CREATE TABLE IF NOT EXISTS data_keys (
      application_id TEXT PRIMARY KEY,
      master_key_id TEXT NOT NULL,
      wrapped BLOB NOT NULL,
      created_at TEXT NOT NULL
    )`);
  }

  async get(applicationId: string) {
    const row = this.db.prepare('SELECT * FROM data_keys WHERE application_id = ?').get(applicationId) as KeyRow | undefined;
    return row && toKey(row);
  }

  async insert(k: WrappedDataKey) {
    this.db.prepare('INSERT OR IGNORE INTO data_keys VALUES (?, ?, ?, ?)').run(k.applicationId, k.masterKeyId, k.wrapped, k.createdAt);
    return (await this.get(k.applicationId))!;
  }

  async all() {
    return (this.db.prepare('SELECT * FROM data_keys ORDER BY application_id').all() as KeyRow[]).map(toKey);
  }

  async rewrap(keys: WrappedDataKey[]) {
    const update = this.db.prepare('UPDATE data_keys SET master_key_id = ?, wrapped = ? WHERE application_id = ?');
    this.db.transaction(() => {
      for (const k of keys) update.run(k.masterKeyId, k.wrapped, k.applicationId);
    }).immediate();
  }

  async close() {
    this.db.close();
  }
}

/** Wrapped keys in table `<registry schema>.data_keys` of the PostgreSQL registry, shared by every API node. */
export class PgWrappedKeyStore implements WrappedKeyStore {
  private readonly init: () => Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {
    // createOnce: API nodes starting together create the table once (IF NOT EXISTS alone races).
    this.init = createOnce(pool, `${schema}.data_keys`, `CREATE TABLE IF NOT EXISTS ${schema}.data_keys (
      application_id TEXT PRIMARY KEY,
      master_key_id TEXT NOT NULL,
      wrapped BYTEA NOT NULL,
      created_at TEXT NOT NULL
    )`);
  }

  async get(applicationId: string) {
    await this.init();
    const { rows } = await this.pool.query<KeyRow>(`SELECT * FROM ${this.schema}.data_keys WHERE application_id = $1`, [applicationId]);
    return rows[0] && toKey(rows[0]);
  }

  async insert(k: WrappedDataKey) {
    await this.init();
    await this.pool.query(`INSERT INTO ${this.schema}.data_keys VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`, [k.applicationId, k.masterKeyId, k.wrapped, k.createdAt]);
    return (await this.get(k.applicationId))!;
  }

  async all() {
    await this.init();
    const { rows } = await this.pool.query<KeyRow>(`SELECT * FROM ${this.schema}.data_keys ORDER BY application_id`);
    return rows.map(toKey);
  }

  async rewrap(keys: WrappedDataKey[]) {
    await this.init();
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      for (const k of keys) {
        await client.query(`UPDATE ${this.schema}.data_keys SET master_key_id = $1, wrapped = $2 WHERE application_id = $3`, [k.masterKeyId, k.wrapped, k.applicationId]);
      }
      await client.query('COMMIT');
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  async close() {
    /* the pool belongs to the store */
  }
}
