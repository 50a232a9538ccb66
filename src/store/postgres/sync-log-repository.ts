import type { Pool } from 'pg';
import { toSyncRecord, type SyncRow as Row } from '../rows.js';
import { originOf } from '../sqlite/change-feed.js';
import type { SyncFeed, SyncLogRepository, SyncRecord } from '../types.js';

/** The application's sync history and resume points in its PostgreSQL schema. */
export class PgSyncLogRepository implements SyncLogRepository {
  private readonly table: string;
  private readonly checkpoints: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = `${schema}.sync_log`;
    this.checkpoints = `${schema}.sync_checkpoints`;
  }

  async record(e: SyncRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (peer_url, started_at, finished_at, pulled, created, updated, skipped, error, direction, deleted, refused)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
      [originOf(e.peerUrl), e.startedAt, e.finishedAt, e.pulled, e.created, e.updated, e.skipped, e.error, e.direction ?? 'pull', e.deleted ?? 0, e.refused ?? 0],
    );
  }

  async recent(limit: number): Promise<SyncRecord[]> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM ${this.table} ORDER BY id DESC LIMIT $1`, [limit]);
    return rows.map(toSyncRecord);
  }

  async checkpoint(peer: string, direction: 'pull' | 'push', modality: SyncFeed): Promise<number> {
    const { rows } = await this.pool.query<{ seq: string }>(`SELECT seq FROM ${this.checkpoints} WHERE peer = $1 AND direction = $2 AND modality = $3`, [peer, direction, modality]);
    return rows[0] ? Number(rows[0].seq) : 0;
  }

  async setCheckpoint(peer: string, direction: 'pull' | 'push', modality: SyncFeed, seq: number): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.checkpoints} (peer, direction, modality, seq) VALUES ($1, $2, $3, $4) ON CONFLICT (peer, direction, modality) DO UPDATE SET seq = excluded.seq`,
      [peer, direction, modality, seq],
    );
  }
}
