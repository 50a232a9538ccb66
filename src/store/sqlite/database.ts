import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/** One schema step. Steps run in order inside a transaction; `user_version` records the last. */
export type Migration = (db: SqliteDatabase) => void;

/**
 * Opens a SQLite file for crash-safe use: WAL journal, synchronous FULL (a committed write
 * survives power loss), foreign keys on, busy timeout for concurrent CLI use, then applies the
 * pending migrations.
 */
export function openDatabase(file: string, migrations: Migration[]): SqliteDatabase {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  const current = db.pragma('user_version', { simple: true }) as number;
  for (let v = current; v < migrations.length; v++) {
    db.transaction(() => {
      migrations[v](db);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return db;
}
