import type { Pool } from 'pg';
import { toSyncRecord, type SyncRow as Row } from '../rows.js';
import type { SyncLogRepository, SyncRecord } from '../types.js';

/** The application's sync history in its PostgreSQL schema. */
export class PgSyncLogRepository implements SyncLogRepository {
  private readonly table: string;

  constructor(
    private readonly pool: Pool,
    schema: string,
  ) {
    this.table = `${schema}.sync_log`;
  }

  async record(e: SyncRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${this.table} (peer_url, started_at, finished_at, pulled, created, updated, skipped, error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.peerUrl, e.startedAt, e.finishedAt, e.pulled, e.created, e.updated, e.skipped, e.error],
    );
  }

  async recent(limit: number): Promise<SyncRecord[]> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM ${this.table} ORDER BY id DESC LIMIT $1`, [limit]);
    return rows.map(toSyncRecord);
  }
}
