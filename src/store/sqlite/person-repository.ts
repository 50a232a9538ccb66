import { toBytes, type PersonRow, type TemplateRow } from '../rows.js';
import type { ApplyOutcome, IncomingChange, NewTemplate, PersonChange, PersonRecord, PersonRepository, PersonSummary, StoredTemplate, StoredTemplateRow } from '../types.js';
import type { Migration, SqliteDatabase } from './database.js';
import { SYNC_MIGRATION, clockPast, nextStamp, type Stamp } from './change-feed.js';
import { DOCUMENTS_MIGRATION, followPersonDelete } from './document-repository.js';

export type Modality = 'face' | 'finger';

interface FeedRow {
  kind: 'upsert' | 'delete';
  ext_id: string;
  version: string;
  seq: number;
  created_at: string | null;
  updated_at: string | null;
  deleted_at: string | null;
  station_id: string | null;
}

/** Schema of an application's database: persons per modality, and their templates. */
export const TENANT_MIGRATIONS: Migration[] = [
  (db) =>
    db.exec(`
      CREATE TABLE persons (
        modality TEXT NOT NULL CHECK (modality IN ('face', 'finger')),
        ext_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (modality, ext_id)
      );
      CREATE TABLE templates (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        modality TEXT NOT NULL,
        ext_id TEXT NOT NULL,
        position TEXT,
        data BLOB NOT NULL,
        created_at TEXT NOT NULL,
        FOREIGN KEY (modality, ext_id) REFERENCES persons (modality, ext_id) ON DELETE CASCADE
      );
      CREATE INDEX templates_by_person ON templates (modality, ext_id);
    `),
  (db) =>
    db.exec(`
      CREATE TABLE revisions (modality TEXT PRIMARY KEY, value INTEGER NOT NULL);
      INSERT INTO revisions VALUES ('face', 0), ('finger', 0);
    `),
  (db) =>
    db.exec(`
      CREATE TABLE sync_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        peer_url TEXT NOT NULL,
        started_at TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        pulled INTEGER NOT NULL,
        created INTEGER NOT NULL,
        updated INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        error TEXT
      );
    `),
  SYNC_MIGRATION,
  DOCUMENTS_MIGRATION,
];

/**
 * Persons of one modality in an application's SQLite database. Pages and lists follow insertion
 * order (rowid), which is creation order and never changes when templates are replaced.
 */
export class SqlitePersonRepository implements PersonRepository {
  constructor(
    private readonly db: SqliteDatabase,
    private readonly modality: Modality,
  ) {}

  async count(): Promise<number> {
    return (this.db.prepare('SELECT count(*) AS n FROM persons WHERE modality = ?').get(this.modality) as { n: number }).n;
  }

  async list(): Promise<PersonSummary[]> {
    const rows = this.db
      .prepare('SELECT ext_id, created_at FROM persons WHERE modality = ? ORDER BY rowid')
      .all(this.modality) as PersonRow[];
    return rows.map((r) => ({ extId: r.ext_id, createdAt: r.created_at }));
  }

  async find(extId: string): Promise<PersonRecord | undefined> {
    const row = this.db
      .prepare('SELECT ext_id, created_at, updated_at, version FROM persons WHERE modality = ? AND ext_id = ?')
      .get(this.modality, extId) as (PersonRow & { version: string }) | undefined;
    if (!row) return undefined;
    return { ...this.summary(row), updatedAt: row.updated_at, templates: this.templatesOf([extId]).get(extId) ?? [], version: row.version };
  }

  async templateCount(extId: string): Promise<number | undefined> {
    if (!this.exists(extId)) return undefined;
    return (
      this.db.prepare('SELECT count(*) AS n FROM templates WHERE modality = ? AND ext_id = ?').get(this.modality, extId) as {
        n: number;
      }
    ).n;
  }

  async create(extId: string, templates: NewTemplate[], now: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.exists(extId)) return false;
      this.db.prepare('INSERT INTO persons (modality, ext_id, created_at, updated_at) VALUES (?, ?, ?, ?)').run(this.modality, extId, now, now);
      this.insertTemplates(extId, templates, now);
      this.stampPerson(extId, nextStamp(this.db));
      this.bump();
      return true;
    }).immediate();
  }

  async replaceTemplates(extId: string, templates: NewTemplate[], now: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (!this.exists(extId)) return false;
      this.db.prepare('DELETE FROM templates WHERE modality = ? AND ext_id = ?').run(this.modality, extId);
      this.insertTemplates(extId, templates, now);
      this.db.prepare('UPDATE persons SET updated_at = ? WHERE modality = ? AND ext_id = ?').run(now, this.modality, extId);
      this.stampPerson(extId, nextStamp(this.db));
      this.bump();
      return true;
    }).immediate();
  }

  async appendTemplates(extId: string, templates: NewTemplate[], now: string): Promise<PersonRecord> {
    return this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO persons (modality, ext_id, created_at, updated_at) VALUES (?, ?, ?, ?)
           ON CONFLICT (modality, ext_id) DO UPDATE SET updated_at = excluded.updated_at`,
        )
        .run(this.modality, extId, now, now);
      this.insertTemplates(extId, templates, now);
      this.stampPerson(extId, nextStamp(this.db));
      this.bump();
      const row = this.db
        .prepare('SELECT ext_id, created_at, updated_at FROM persons WHERE modality = ? AND ext_id = ?')
        .get(this.modality, extId) as PersonRow;
      return { ...this.summary(row), updatedAt: row.updated_at, templates: this.templatesOf([extId]).get(extId) ?? [] };
    }).immediate();
  }

  async delete(extId: string): Promise<boolean> {
    return this.db.transaction(() => {
      if (this.db.prepare('DELETE FROM persons WHERE modality = ? AND ext_id = ?').run(this.modality, extId).changes === 0) return false;
      const stamp = nextStamp(this.db);
      const deletedAt = new Date().toISOString();
      this.tombstone(extId, stamp.version, stamp.stationId, deletedAt, stamp.seq);
      followPersonDelete(this.db, extId, stamp.version, stamp.stationId, deletedAt);
      this.bump();
      return true;
    }).immediate();
  }

  async revision(): Promise<number> {
    return (this.db.prepare('SELECT value FROM revisions WHERE modality = ?').get(this.modality) as { value: number }).value;
  }

  private bump(): void {
    this.db.prepare('UPDATE revisions SET value = value + 1 WHERE modality = ?').run(this.modality);
  }

  async page(offset: number, limit: number): Promise<PersonRecord[]> {
    const rows = this.db
      .prepare('SELECT ext_id, created_at, updated_at, version FROM persons WHERE modality = ? ORDER BY rowid LIMIT ? OFFSET ?')
      .all(this.modality, limit, offset) as Array<PersonRow & { version: string }>;
    const templates = this.templatesOf(rows.map((r) => r.ext_id));
    return rows.map((r) => ({ ...this.summary(r), updatedAt: r.updated_at, templates: templates.get(r.ext_id) ?? [], version: r.version }));
  }

  async allTemplates(): Promise<Array<{ extId: string; templates: Uint8Array[] }>> {
    const byPerson = new Map<string, Uint8Array[]>();
    const rows = this.db
      .prepare('SELECT ext_id, data FROM templates WHERE modality = ? ORDER BY id')
      .all(this.modality) as Array<{ ext_id: string; data: Buffer }>;
    for (const r of rows) {
      let list = byPerson.get(r.ext_id);
      if (!list) byPerson.set(r.ext_id, (list = []));
      list.push(toBytes(r.data));
    }
    return [...byPerson].map(([extId, templates]) => ({ extId, templates }));
  }

  async storedTemplateRows(afterId: number, limit: number): Promise<StoredTemplateRow[]> {
    const rows = this.db
      .prepare('SELECT id, ext_id, data FROM templates WHERE modality = ? AND id > ? ORDER BY id LIMIT ?')
      .all(this.modality, afterId, limit) as Array<{ id: number; ext_id: string; data: Buffer }>;
    return rows.map((r) => ({ id: r.id, extId: r.ext_id, data: toBytes(r.data) }));
  }

  async rewriteTemplateRows(rows: Array<{ id: number; expected: Uint8Array; data: Uint8Array }>): Promise<number> {
    const update = this.db.prepare('UPDATE templates SET data = ? WHERE id = ? AND modality = ? AND data = ?');
    return this.db.transaction(() => {
      let n = 0;
      for (const r of rows) n += update.run(Buffer.from(r.data), r.id, this.modality, Buffer.from(r.expected)).changes;
      return n;
    }).immediate();
  }

  /** VACUUM rewrites the file from its live rows (freed pages go), then the WAL is checkpointed and truncated. */
  async compact(): Promise<void> {
    this.db.exec('VACUUM');
    this.db.pragma('wal_checkpoint(TRUNCATE)');
  }

  async changes(afterSeq: number, limit: number): Promise<PersonChange[]> {
    const rows = this.db
      .prepare(
        `SELECT 'upsert' AS kind, ext_id, version, change_seq AS seq, created_at, updated_at, NULL AS deleted_at, NULL AS station_id
           FROM persons WHERE modality = ? AND change_seq > ?
         UNION ALL
         SELECT 'delete', ext_id, version, change_seq, NULL, NULL, deleted_at, station_id
           FROM tombstones WHERE modality = ? AND change_seq > ?
         ORDER BY seq LIMIT ?`,
      )
      .all(this.modality, afterSeq, this.modality, afterSeq, limit) as FeedRow[];
    const templates = this.templatesOf(rows.filter((r) => r.kind === 'upsert').map((r) => r.ext_id));
    return rows.map((r) =>
      r.kind === 'upsert'
        ? { kind: 'upsert', seq: r.seq, extId: r.ext_id, version: r.version, createdAt: r.created_at!, updatedAt: r.updated_at!, templates: (templates.get(r.ext_id) ?? []).map((t) => ({ data: t.data, position: t.position })) }
        : { kind: 'delete', seq: r.seq, extId: r.ext_id, version: r.version, deletedAt: r.deleted_at!, stationId: r.station_id! },
    );
  }

  async countChanges(afterSeq: number): Promise<number> {
    const row = this.db
      .prepare('SELECT (SELECT count(*) FROM persons WHERE modality = ? AND change_seq > ?) + (SELECT count(*) FROM tombstones WHERE modality = ? AND change_seq > ?) AS n')
      .get(this.modality, afterSeq, this.modality, afterSeq) as { n: number };
    return row.n;
  }

  async applyChange(change: IncomingChange): Promise<ApplyOutcome> {
    return this.db.transaction(() => this.applyInTransaction(change)).immediate();
  }

  async applyChanges(changes: IncomingChange[]): Promise<ApplyOutcome[]> {
    return this.db.transaction(() => changes.map((c) => this.applyInTransaction(c))).immediate();
  }

  private applyInTransaction(change: IncomingChange): ApplyOutcome {
    {
      const person = this.db.prepare('SELECT version FROM persons WHERE modality = ? AND ext_id = ?').get(this.modality, change.extId) as { version: string } | undefined;
      const tomb = person ? undefined : (this.db.prepare('SELECT version FROM tombstones WHERE modality = ? AND ext_id = ?').get(this.modality, change.extId) as { version: string } | undefined);
      const local = person?.version ?? tomb?.version ?? '';
      if (change.version <= local) return 'stale';
      const seq = clockPast(this.db, change.version);
      if (change.kind === 'delete') {
        this.tombstone(change.extId, change.version, change.stationId, change.deletedAt, seq);
        if (!person) return 'tombstone';
        this.db.prepare('DELETE FROM persons WHERE modality = ? AND ext_id = ?').run(this.modality, change.extId);
        followPersonDelete(this.db, change.extId, change.version, change.stationId, change.deletedAt);
        this.bump();
        return 'deleted';
      }
      if (person) {
        this.db.prepare('DELETE FROM templates WHERE modality = ? AND ext_id = ?').run(this.modality, change.extId);
        this.db.prepare('UPDATE persons SET updated_at = ? WHERE modality = ? AND ext_id = ?').run(change.updatedAt, this.modality, change.extId);
      } else {
        this.db.prepare('DELETE FROM tombstones WHERE modality = ? AND ext_id = ?').run(this.modality, change.extId);
        this.db
          .prepare('INSERT INTO persons (modality, ext_id, created_at, updated_at) VALUES (?, ?, ?, ?)')
          .run(this.modality, change.extId, change.createdAt, change.updatedAt);
      }
      this.insertTemplates(change.extId, change.templates, change.updatedAt);
      this.db.prepare('UPDATE persons SET version = ?, change_seq = ? WHERE modality = ? AND ext_id = ?').run(change.version, seq, this.modality, change.extId);
      this.bump();
      return person ? 'updated' : 'created';
    }
  }

  async versionOf(extId: string): Promise<string | undefined> {
    const row = this.db
      .prepare('SELECT version FROM persons WHERE modality = ? AND ext_id = ? UNION ALL SELECT version FROM tombstones WHERE modality = ? AND ext_id = ?')
      .get(this.modality, extId, this.modality, extId) as { version: string } | undefined;
    return row?.version;
  }

  async purgeTombstones(before: string): Promise<number> {
    return this.db.prepare('DELETE FROM tombstones WHERE modality = ? AND deleted_at < ?').run(this.modality, before).changes;
  }

  /** Sets the person's version and change sequence number (inside the write's transaction). */
  private stampPerson(extId: string, stamp: Stamp): void {
    this.db.prepare('DELETE FROM tombstones WHERE modality = ? AND ext_id = ?').run(this.modality, extId);
    this.db.prepare('UPDATE persons SET version = ?, change_seq = ? WHERE modality = ? AND ext_id = ?').run(stamp.version, stamp.seq, this.modality, extId);
  }

  private tombstone(extId: string, version: string, stationId: string, deletedAt: string, seq: number): void {
    this.db
      .prepare(
        `INSERT INTO tombstones (modality, ext_id, version, station_id, deleted_at, change_seq) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (modality, ext_id) DO UPDATE SET version = excluded.version, station_id = excluded.station_id,
           deleted_at = excluded.deleted_at, change_seq = excluded.change_seq`,
      )
      .run(this.modality, extId, version, stationId, deletedAt, seq);
  }

  private summary(r: PersonRow): PersonSummary {
    return { extId: r.ext_id, createdAt: r.created_at };
  }

  private exists(extId: string): boolean {
    return this.db.prepare('SELECT 1 FROM persons WHERE modality = ? AND ext_id = ?').get(this.modality, extId) !== undefined;
  }

  private insertTemplates(extId: string, templates: NewTemplate[], now: string): void {
    const insert = this.db.prepare('INSERT INTO templates (modality, ext_id, position, data, created_at) VALUES (?, ?, ?, ?, ?)');
    for (const t of templates) insert.run(this.modality, extId, t.position ?? null, Buffer.from(t.data), now);
  }

  private templatesOf(extIds: string[]): Map<string, StoredTemplate[]> {
    const out = new Map<string, StoredTemplate[]>();
    if (extIds.length === 0) return out;
    const select = this.db.prepare(
      'SELECT ext_id, position, data, created_at FROM templates WHERE modality = ? AND ext_id = ? ORDER BY id',
    );
    for (const extId of extIds) {
      const rows = select.all(this.modality, extId) as TemplateRow[];
      out.set(
        extId,
        rows.map((r) => ({ data: toBytes(r.data), position: r.position, createdAt: r.created_at })),
      );
    }
    return out;
  }
}
