import { toApplicationRecord as toRecord, type ApplicationRow as Row } from '../rows.js';
import type { ApplicationRecord, ApplicationRepository } from '../types.js';
import { openDatabase, type Migration, type SqliteDatabase } from './database.js';

const MIGRATIONS: Migration[] = [
  (db) =>
    db.exec(`CREATE TABLE applications (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      key TEXT NOT NULL UNIQUE,
      secret_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      disabled_at TEXT
    )`),
  (db) => db.exec('ALTER TABLE applications ADD COLUMN face_threshold REAL; ALTER TABLE applications ADD COLUMN finger_threshold REAL;'),
  (db) => db.exec('ALTER TABLE applications ADD COLUMN token_generation INTEGER NOT NULL DEFAULT 0'),
  (db) => db.exec("ALTER TABLE applications ADD COLUMN dedup_policy TEXT NOT NULL DEFAULT 'warn'"),
  (db) => db.exec('ALTER TABLE applications ADD COLUMN liveness_threshold REAL'),
];

/** The station registry of applications, in `<dataDir>/station.db`. */
export class SqliteApplicationRepository implements ApplicationRepository {
  private readonly db: SqliteDatabase;

  constructor(file: string) {
    this.db = openDatabase(file, MIGRATIONS);
  }

  async insert(app: ApplicationRecord): Promise<void> {
    this.db
      .prepare(
        `INSERT INTO applications (id, name, key, secret_hash, created_at, disabled_at, face_threshold, finger_threshold, token_generation, dedup_policy)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(app.id, app.name, app.key, app.secretHash, app.createdAt, app.disabledAt, app.faceThreshold, app.fingerThreshold, app.tokenGeneration ?? 0, app.dedupPolicy ?? 'warn');
  }

  async findByKey(key: string): Promise<ApplicationRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM applications WHERE key = ?').get(key) as Row | undefined;
    return row && toRecord(row);
  }

  async findById(id: string): Promise<ApplicationRecord | undefined> {
    const row = this.db.prepare('SELECT * FROM applications WHERE id = ?').get(id) as Row | undefined;
    return row && toRecord(row);
  }

  async list(): Promise<ApplicationRecord[]> {
    return (this.db.prepare('SELECT * FROM applications ORDER BY created_at, name').all() as Row[]).map(toRecord);
  }

  async disable(key: string, at: string): Promise<boolean> {
    return this.db.prepare('UPDATE applications SET disabled_at = coalesce(disabled_at, ?), token_generation = token_generation + 1 WHERE key = ?').run(at, key).changes > 0;
  }

  async updateSecretHash(key: string, secretHash: string): Promise<boolean> {
    return this.db.prepare('UPDATE applications SET secret_hash = ?, token_generation = token_generation + 1 WHERE key = ?').run(secretHash, key).changes > 0;
  }

  async updateThresholds(key: string, t: { faceThreshold?: number | null; fingerThreshold?: number | null; livenessThreshold?: number | null }): Promise<boolean> {
    const app = await this.findByKey(key);
    if (!app) return false;
    this.db
      .prepare('UPDATE applications SET face_threshold = ?, finger_threshold = ?, liveness_threshold = ? WHERE key = ?')
      .run(
        t.faceThreshold === undefined ? app.faceThreshold : t.faceThreshold,
        t.fingerThreshold === undefined ? app.fingerThreshold : t.fingerThreshold,
        t.livenessThreshold === undefined ? (app.livenessThreshold ?? null) : t.livenessThreshold,
        key,
      );
    return true;
  }

  async updateDedupPolicy(key: string, policy: 'off' | 'warn' | 'block'): Promise<boolean> {
    return this.db.prepare('UPDATE applications SET dedup_policy = ? WHERE key = ?').run(policy, key).changes > 0;
  }

  close(): void {
    this.db.close();
  }
}
