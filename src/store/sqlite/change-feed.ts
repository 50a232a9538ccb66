import { randomUUID } from 'node:crypto';
import { hlcOfTimestamp, maxHlc, nextHlc } from '../../sync/hlc.js';
import type { Migration, SqliteDatabase } from './database.js';

/** Version and change sequence number given to one write. */
export interface Stamp {
  version: string;
  seq: number;
  stationId: string;
}

/**
 * Tenant migration 4: the change feed of station sync. `sync_clock` holds this replica's station id
 * (random per application database), its hybrid logical clock and its change sequence; every person
 * carries the version and sequence number of its latest change; a delete leaves a row in
 * `tombstones`. Existing persons get a version from their `updated_at` and sequence numbers in
 * creation order. `sync_log` gains direction and counts; `sync_checkpoints` holds resume points.
 * Peer URLs already logged are cut to their origin (an older version logged them whole).
 */
export const SYNC_MIGRATION: Migration = (db) => {
  const stationId = randomUUID();
  db.exec(`
    ALTER TABLE persons ADD COLUMN version TEXT NOT NULL DEFAULT '';
    ALTER TABLE persons ADD COLUMN change_seq INTEGER NOT NULL DEFAULT 0;
    CREATE TABLE tombstones (
      modality TEXT NOT NULL,
      ext_id TEXT NOT NULL,
      version TEXT NOT NULL,
      station_id TEXT NOT NULL,
      deleted_at TEXT NOT NULL,
      change_seq INTEGER NOT NULL,
      PRIMARY KEY (modality, ext_id)
    );
    CREATE TABLE sync_clock (id INTEGER PRIMARY KEY CHECK (id = 1), station_id TEXT NOT NULL, hlc TEXT NOT NULL, seq INTEGER NOT NULL);
    CREATE TABLE sync_checkpoints (
      peer TEXT NOT NULL, direction TEXT NOT NULL, modality TEXT NOT NULL, seq INTEGER NOT NULL,
      PRIMARY KEY (peer, direction, modality)
    );
    ALTER TABLE sync_log ADD COLUMN direction TEXT NOT NULL DEFAULT 'pull';
    ALTER TABLE sync_log ADD COLUMN deleted INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sync_log ADD COLUMN refused INTEGER NOT NULL DEFAULT 0;
  `);
  let seq = 0;
  let hlc = '';
  const rows = db.prepare('SELECT rowid AS id, updated_at FROM persons ORDER BY rowid').all() as Array<{ id: number; updated_at: string }>;
  const update = db.prepare('UPDATE persons SET version = ?, change_seq = ? WHERE rowid = ?');
  for (const r of rows) {
    const ms = Date.parse(r.updated_at);
    const version = hlcOfTimestamp(Number.isFinite(ms) && ms > 0 ? r.updated_at : new Date(0).toISOString(), stationId);
    update.run(version, ++seq, r.id);
    hlc = maxHlc(hlc, version);
  }
  db.prepare('INSERT INTO sync_clock VALUES (1, ?, ?, ?)').run(stationId, hlc, seq);
  db.exec('CREATE INDEX persons_by_change ON persons (modality, change_seq); CREATE INDEX tombstones_by_change ON tombstones (modality, change_seq);');
  const logged = db.prepare('SELECT id, peer_url FROM sync_log').all() as Array<{ id: number; peer_url: string }>;
  for (const l of logged) db.prepare('UPDATE sync_log SET peer_url = ? WHERE id = ?').run(originOf(l.peer_url), l.id);
};

/** The origin of a URL (no user, password, path or query); '(invalid)' when it is not a URL. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid)';
  }
}

/** Next version and sequence number of a local write; call inside the write's transaction. */
export function nextStamp(db: SqliteDatabase): Stamp {
  const c = db.prepare('SELECT station_id, hlc, seq FROM sync_clock').get() as { station_id: string; hlc: string; seq: number };
  const version = nextHlc(c.hlc, Date.now(), c.station_id);
  const seq = c.seq + 1;
  db.prepare('UPDATE sync_clock SET hlc = ?, seq = ?').run(version, seq);
  return { version, seq, stationId: c.station_id };
}

/** Moves the clock past a version received from another station; returns the next sequence number. */
export function clockPast(db: SqliteDatabase, version: string): number {
  const c = db.prepare('SELECT hlc, seq FROM sync_clock').get() as { hlc: string; seq: number };
  db.prepare('UPDATE sync_clock SET hlc = ?, seq = ?').run(maxHlc(c.hlc, version), c.seq + 1);
  return c.seq + 1;
}
