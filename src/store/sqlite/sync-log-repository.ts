import { toSyncRecord, type SyncRow as Row } from '../rows.js';
import type { SyncLogRepository, SyncRecord } from '../types.js';
import type { SqliteDatabase } from './database.js';

/** The application's sync history (table `sync_log`, migration 3 of the tenant schema). */
export class SqliteSyncLogRepository implements SyncLogRepository {
  constructor(private readonly db: SqliteDatabase) {}

  async record(e: SyncRecord): Promise<void> {
    this.db
      .prepare('INSERT INTO sync_log (peer_url, started_at, finished_at, pulled, created, updated, skipped, error) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(e.peerUrl, e.startedAt, e.finishedAt, e.pulled, e.created, e.updated, e.skipped, e.error);
  }

  async recent(limit: number): Promise<SyncRecord[]> {
    const rows = this.db.prepare('SELECT * FROM sync_log ORDER BY id DESC LIMIT ?').all(limit) as Row[];
    return rows.map(toSyncRecord);
  }
}
