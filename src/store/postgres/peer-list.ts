import type { Pool } from 'pg';
import type { PeerListStore } from '../types.js';
import { createOnce } from './create-once.js';

/**
 * The admin-added sync peers (PeerListStore) in table `<registry schema>.sync_peers`, shared by every
 * API node. Created on first use (createOnce: nodes starting together create it once), like the data
 * keys' table: an older node simply never reads it, so no migration level is raised.
 */
export class PgPeerListStore implements PeerListStore {
  private readonly init: () => Promise<void>;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {
    this.init = createOnce(pool, `${schema}.sync_peers`, `CREATE TABLE IF NOT EXISTS ${schema}.sync_peers (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL, version INTEGER NOT NULL)`);
  }

  async read(): Promise<{ body?: string; version: number }> {
    await this.init();
    const { rows } = await this.pool.query<{ body: string; version: number }>(`SELECT body, version FROM ${this.schema}.sync_peers WHERE id = 1`);
    return rows[0] ? { body: rows[0].body, version: rows[0].version } : { version: 0 };
  }

  async write(body: string, expected: number): Promise<boolean> {
    await this.init();
    const res = expected === 0
      ? await this.pool.query(`INSERT INTO ${this.schema}.sync_peers (id, body, version) VALUES (1, $1, 1) ON CONFLICT (id) DO NOTHING`, [body])
      : await this.pool.query(`UPDATE ${this.schema}.sync_peers SET body = $1, version = version + 1 WHERE id = 1 AND version = $2`, [body, expected]);
    return res.rowCount === 1;
  }
}
