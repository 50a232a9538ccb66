import type { PoolClient } from 'pg';
import { PG_SYNC_MIGRATION } from './change-feed.js';
import { PG_DOCUMENTS_MIGRATION } from './document-repository.js';
import { PG_ROLLING_UPGRADE_MIGRATION } from './rolling-upgrade.js';

/**
 * PostgreSQL layout. The station registry lives in schema `biostation`; each application owns a
 * schema `app_<uuid without dashes>` holding its persons and templates, so "one database per
 * application" keeps its meaning (one namespace, dropped or dumped on its own) on a single server
 * shared by several stateless API nodes. Each schema records its migration level in `schema_version`.
 */
export type PgMigration = (client: PoolClient, schema: string) => Promise<void>;

export const REGISTRY_SCHEMA = 'biostation';

export const REGISTRY_MIGRATIONS: PgMigration[] = [
  async (c, s) => {
    await c.query(`CREATE TABLE ${s}.applications (
      id UUID PRIMARY KEY,
      name TEXT NOT NULL,
      key TEXT NOT NULL UNIQUE,
      secret_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      disabled_at TEXT,
      face_threshold DOUBLE PRECISION,
      finger_threshold DOUBLE PRECISION
    )`);
  },
  async (c, s) => {
    await c.query(`ALTER TABLE ${s}.applications ADD COLUMN token_generation INTEGER NOT NULL DEFAULT 0`);
  },
  async (c, s) => {
    await c.query(`ALTER TABLE ${s}.applications ADD COLUMN dedup_policy TEXT NOT NULL DEFAULT 'warn'`);
  },
  async (c, s) => {
    await c.query(`ALTER TABLE ${s}.applications ADD COLUMN liveness_threshold DOUBLE PRECISION`);
  },
];

export const TENANT_MIGRATIONS: PgMigration[] = [
  async (c, s) => {
    await c.query(`CREATE TABLE ${s}.persons (
      seq BIGSERIAL UNIQUE,
      modality TEXT NOT NULL CHECK (modality IN ('face', 'finger')),
      ext_id TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (modality, ext_id)
    )`);
    await c.query(`CREATE TABLE ${s}.templates (
      id BIGSERIAL PRIMARY KEY,
      modality TEXT NOT NULL,
      ext_id TEXT NOT NULL,
      position TEXT,
      data BYTEA NOT NULL,
      created_at TEXT NOT NULL,
      FOREIGN KEY (modality, ext_id) REFERENCES ${s}.persons (modality, ext_id) ON DELETE CASCADE
    )`);
    await c.query(`CREATE INDEX ON ${s}.templates (modality, ext_id)`);
    // Bumped by every write of a modality: API nodes compare it to refresh their in-memory galleries.
    await c.query(`CREATE TABLE ${s}.revisions (modality TEXT PRIMARY KEY, value BIGINT NOT NULL)`);
    await c.query(`INSERT INTO ${s}.revisions VALUES ('face', 0), ('finger', 0)`);
  },
  async (c, s) => {
    await c.query(`CREATE TABLE ${s}.sync_log (
      id BIGSERIAL PRIMARY KEY,
      peer_url TEXT NOT NULL,
      started_at TEXT NOT NULL,
      finished_at TEXT NOT NULL,
      pulled INTEGER NOT NULL,
      created INTEGER NOT NULL,
      updated INTEGER NOT NULL,
      skipped INTEGER NOT NULL,
      error TEXT
    )`);
  },
  (c, s) => PG_SYNC_MIGRATION(c, s),
  (c, s) => PG_DOCUMENTS_MIGRATION(c, s),
  (c, s) => PG_ROLLING_UPGRADE_MIGRATION(c, s),
];

/** Schema name of an application (ids are UUIDs, checked by the caller). */
export const tenantSchema = (applicationId: string): string => `app_${applicationId.replace(/-/g, '')}`;

/**
 * Creates the schema if needed and applies pending migrations, under an advisory lock so several
 * nodes starting together migrate once. Tenant schemas also refuse a lower level from older code
 * (rolling-upgrade.ts).
 */
export async function migrateSchema(client: PoolClient, schema: string, migrations: PgMigration[]): Promise<void> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${schema}.schema_version (version INTEGER NOT NULL)`);
    const { rows } = await client.query<{ version: number }>(`SELECT version FROM ${schema}.schema_version`);
    const current = rows[0]?.version ?? 0;
    for (let v = current; v < migrations.length; v++) await migrations[v](client, schema);
    if (rows.length === 0) await client.query(`INSERT INTO ${schema}.schema_version VALUES ($1)`, [migrations.length]);
    // Never lowered: a node of an older version opening a newer schema leaves its level alone.
    else await client.query(`UPDATE ${schema}.schema_version SET version = GREATEST(version, $1)`, [migrations.length]);
    await client.query('COMMIT');
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}

/** Runs `work` in one transaction on a pooled client. */
export async function inTransaction<T>(pool: { connect(): Promise<PoolClient> }, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    client.release();
  }
}
