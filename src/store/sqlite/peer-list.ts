import Database from 'better-sqlite3';
import type { PeerListStore } from '../types.js';

/** The admin-added sync peers (PeerListStore) in table `sync_peers` of the SQLite registry (`station.db`), on a connection of its own. */
export class SqlitePeerListStore implements PeerListStore {
  private readonly db: Database.Database;

  constructor(registryFile: string) {
    this.db = new Database(registryFile);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = FULL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec('CREATE TABLE IF NOT EXISTS sync_peers (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL, version INTEGER NOT NULL)');
  }

  async read(): Promise<{ body?: string; version: number }> {
    const row = this.db.prepare('SELECT body, version FROM sync_peers WHERE id = 1').get() as { body: string; version: number } | undefined;
    return row ? { body: row.body, version: row.version } : { version: 0 };
  }

  async write(body: string, expected: number): Promise<boolean> {
    const info = expected === 0
      ? this.db.prepare('INSERT OR IGNORE INTO sync_peers (id, body, version) VALUES (1, ?, 1)').run(body)
      : this.db.prepare('UPDATE sync_peers SET body = ?, version = version + 1 WHERE id = 1 AND version = ?').run(body, expected);
    return info.changes === 1;
  }

  close(): void {
    this.db.close();
  }
}
