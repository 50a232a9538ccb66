import { toSyncRecord, type SyncRow as Row } from '../rows.js';
import type { SyncFeed, SyncLogRepository, SyncRecord } from '../types.js';
import { originOf } from './change-feed.js';
import type { SqliteDatabase } from './database.js';

/** The application's sync history (table `sync_log`) and resume points (`sync_checkpoints`, tenant migration 4). */
export class SqliteSyncLogRepository implements SyncLogRepository {
  constructor(private readonly db: SqliteDatabase) {}

  async record(e: SyncRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO sync_log (peer_url, started_at, finished_at, pulled, created, updated, skipped, error, direction, deleted, refused)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(originOf(e.peerUrl), e.startedAt, e.finishedAt, e.pulled, e.created, e.updated, e.skipped, e.error, e.direction ?? 'pull', e.deleted ?? 0, e.refused ?? 0);
  }

  async recent(limit: number): Promise<SyncRecord[]> {
    const rows = this.db.prepare('SELECT * FROM sync_log ORDER BY id DESC LIMIT ?').all(limit) as Row[];
    return rows.map(toSyncRecord);
  }

  async checkpoint(peer: string, direction: 'pull' | 'push', modality: SyncFeed): Promise<number> {
    const row = this.db.prepare('SELECT seq FROM sync_checkpoints WHERE peer = ? AND direction = ? AND modality = ?').get(peer, direction, modality) as { seq: number } | undefined;
    return row?.seq ?? 0;
  }

  async setCheckpoint(peer: string, direction: 'pull' | 'push', modality: SyncFeed, seq: number): Promise<void> {
    this.db
      .prepare('INSERT INTO sync_checkpoints (peer, direction, modality, seq) VALUES (?, ?, ?, ?) ON CONFLICT (peer, direction, modality) DO UPDATE SET seq = excluded.seq')
      .run(peer, direction, modality, seq);
  }
}
