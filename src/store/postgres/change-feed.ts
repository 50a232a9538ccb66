import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { hlcOfTimestamp, maxHlc, nextHlc } from '../../sync/hlc.js';
import { originOf } from '../sqlite/change-feed.js';
import type { PgMigration } from './schema.js';

/** Version and change sequence number given to one write. */
export interface Stamp {
  version: string;
  seq: number;
  stationId: string;
}

/**
 * Tenant migration 3 (PostgreSQL): the change feed of station sync, as in the SQLite store
 * (src/store/sqlite/change-feed.ts): `sync_clock` (one station id for every API node sharing the
 * schema), versions and change sequence numbers on persons, `tombstones`, `sync_checkpoints`, and
 * the new `sync_log` columns. The clock row is locked by each write, which orders the feed by commit.
 */
export const PG_SYNC_MIGRATION: PgMigration = async (c, s) => {
  const stationId = randomUUID();
  await c.query(`ALTER TABLE ${s}.persons ADD COLUMN version TEXT NOT NULL DEFAULT '', ADD COLUMN change_seq BIGINT NOT NULL DEFAULT 0`);
  await c.query(`CREATE TABLE ${s}.tombstones (
    modality TEXT NOT NULL, ext_id TEXT NOT NULL, version TEXT NOT NULL, station_id TEXT NOT NULL,
    deleted_at TEXT NOT NULL, change_seq BIGINT NOT NULL, PRIMARY KEY (modality, ext_id))`);
  await c.query(`CREATE TABLE ${s}.sync_clock (id INTEGER PRIMARY KEY CHECK (id = 1), station_id TEXT NOT NULL, hlc TEXT NOT NULL, seq BIGINT NOT NULL)`);
  await c.query(`CREATE TABLE ${s}.sync_checkpoints (peer TEXT NOT NULL, direction TEXT NOT NULL, modality TEXT NOT NULL, seq BIGINT NOT NULL, PRIMARY KEY (peer, direction, modality))`);
  await c.query(`ALTER TABLE ${s}.sync_log ADD COLUMN direction TEXT NOT NULL DEFAULT 'pull', ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0, ADD COLUMN refused INTEGER NOT NULL DEFAULT 0`);
  const { rows } = await c.query<{ seq: string; updated_at: string; modality: string; ext_id: string }>(`SELECT seq, updated_at, modality, ext_id FROM ${s}.persons ORDER BY seq`);
  let seq = 0;
  let hlc = '';
  for (const r of rows) {
    const ms = Date.parse(r.updated_at);
    const version = hlcOfTimestamp(Number.isFinite(ms) && ms > 0 ? r.updated_at : new Date(0).toISOString(), stationId);
    await c.query(`UPDATE ${s}.persons SET version = $1, change_seq = $2 WHERE modality = $3 AND ext_id = $4`, [version, ++seq, r.modality, r.ext_id]);
    hlc = maxHlc(hlc, version);
  }
  await c.query(`INSERT INTO ${s}.sync_clock VALUES (1, $1, $2, $3)`, [stationId, hlc, seq]);
  await c.query(`CREATE INDEX ON ${s}.persons (modality, change_seq)`);
  await c.query(`CREATE INDEX ON ${s}.tombstones (modality, change_seq)`);
  const logged = await c.query<{ id: string; peer_url: string }>(`SELECT id, peer_url FROM ${s}.sync_log`);
  for (const l of logged.rows) await c.query(`UPDATE ${s}.sync_log SET peer_url = $1 WHERE id = $2`, [originOf(l.peer_url), l.id]);
};

/** Next version and sequence number of a local write; call inside the write's transaction (locks the clock row). */
export async function nextStamp(c: PoolClient, schema: string): Promise<Stamp> {
  const { rows } = await c.query<{ station_id: string; hlc: string; seq: string }>(`SELECT station_id, hlc, seq FROM ${schema}.sync_clock FOR UPDATE`);
  const version = nextHlc(rows[0].hlc, Date.now(), rows[0].station_id);
  const seq = Number(rows[0].seq) + 1;
  await c.query(`UPDATE ${schema}.sync_clock SET hlc = $1, seq = $2`, [version, seq]);
  return { version, seq, stationId: rows[0].station_id };
}

/** Moves the clock past a version received from another station; returns the next sequence number. */
export async function clockPast(c: PoolClient, schema: string, version: string): Promise<number> {
  const { rows } = await c.query<{ hlc: string; seq: string }>(`SELECT hlc, seq FROM ${schema}.sync_clock FOR UPDATE`);
  const seq = Number(rows[0].seq) + 1;
  await c.query(`UPDATE ${schema}.sync_clock SET hlc = $1, seq = $2`, [maxHlc(rows[0].hlc, version), seq]);
  return seq;
}
