import type { ApplicationRecord, SyncRecord } from './types.js';

/**
 * Row shapes shared by the SQLite and PostgreSQL stores (same column names in both dialects)
 * and their mapping to the repository records.
 */

export interface ApplicationRow {
  id: string;
  name: string;
  key: string;
  secret_hash: string;
  created_at: string;
  disabled_at: string | null;
  face_threshold: number | null;
  finger_threshold: number | null;
  token_generation: number;
  /** Registry migration (SQLite 4th, PostgreSQL 3rd): 'off' | 'warn' | 'block'. */
  dedup_policy?: string | null;
  /** Registry migration (SQLite 5th, PostgreSQL 4th): passive liveness threshold, null = the engine's default. */
  liveness_threshold?: number | null;
}

export const toApplicationRecord = (r: ApplicationRow): ApplicationRecord => ({
  id: r.id,
  name: r.name,
  key: r.key,
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  disabledAt: r.disabled_at,
  faceThreshold: r.face_threshold,
  fingerThreshold: r.finger_threshold,
  tokenGeneration: Number(r.token_generation ?? 0),
  dedupPolicy: r.dedup_policy === 'off' || r.dedup_policy === 'block' ? r.dedup_policy : 'warn',
  livenessThreshold: r.liveness_threshold ?? null,
});

export interface SyncRow {
  peer_url: string;
  started_at: string;
  finished_at: string;
  pulled: number;
  created: number;
  updated: number;
  skipped: number;
  error: string | null;
  direction?: 'pull' | 'push';
  deleted?: number;
  refused?: number;
}

export const toSyncRecord = (r: SyncRow): SyncRecord => ({
  peerUrl: r.peer_url,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  pulled: r.pulled,
  created: r.created,
  updated: r.updated,
  skipped: r.skipped,
  error: r.error,
  direction: r.direction ?? 'pull',
  deleted: Number(r.deleted ?? 0),
  refused: Number(r.refused ?? 0),
});

export interface PersonRow {
  ext_id: string;
  created_at: string;
  updated_at: string;
}

export interface TemplateRow {
  ext_id: string;
  position: string | null;
  data: Buffer;
  created_at: string;
}

/** A driver's Buffer as the plain bytes the engines take, without copying. */
export const toBytes = (b: Buffer): Uint8Array => new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
