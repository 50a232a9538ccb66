import type { Pool, PoolClient } from 'pg';
import { toBytes, type PersonRow, type TemplateRow } from '../rows.js';
import type { ApplyOutcome, IncomingChange, NewTemplate, PersonChange, PersonRecord, PersonRepository, PersonSummary, StoredTemplate, StoredTemplateRow } from '../types.js';
import type { Modality } from '../sqlite/person-repository.js';
import { clockPast, nextStamp, type Stamp } from './change-feed.js';
import { followPersonDelete } from './document-repository.js';
import { REVISION_CHANNEL, type RevisionListener } from './revision-listener.js';
import { inTransaction } from './schema.js';

/**
 * Persons of one modality in an application's PostgreSQL schema. Same contract as the SQLite
 * repository: every write is one transaction and bumps the modality's revision.
 */
export class PgPersonRepository implements PersonRepository {
  private readonly persons: string;
  private readonly templates: string;
  private readonly revisions: string;
  private readonly tombstones: string;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
    private readonly modality: Modality,
    /** Revisions heard by LISTEN (API nodes); without it every revision() asks the server. */
    private readonly listener?: RevisionListener,
  ) {
    this.tombstones = `${schema}.tombstones`;
    this.persons = `${schema}.persons`;
    this.templates = `${schema}.templates`;
    this.revisions = `${schema}.revisions`;
  }

  async count(): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.persons} WHERE modality = $1`, [this.modality]);
    return Number(rows[0].n);
  }

  async list(): Promise<PersonSummary[]> {
    const { rows } = await this.pool.query<PersonRow>(`SELECT ext_id, created_at FROM ${this.persons} WHERE modality = $1 ORDER BY seq`, [this.modality]);
    return rows.map((r) => ({ extId: r.ext_id, createdAt: r.created_at }));
  }

  async find(extId: string): Promise<PersonRecord | undefined> {
    const { rows } = await this.pool.query<PersonRow & { version: string }>(
      `SELECT ext_id, created_at, updated_at, version FROM ${this.persons} WHERE modality = $1 AND ext_id = $2`,
      [this.modality, extId],
    );
    if (!rows[0]) return undefined;
    const templates = await this.templatesOf([extId]);
    return { extId, createdAt: rows[0].created_at, updatedAt: rows[0].updated_at, templates: templates.get(extId) ?? [], version: rows[0].version };
  }

  async templateCount(extId: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ exists: boolean; n: string }>(
      `SELECT EXISTS (SELECT 1 FROM ${this.persons} WHERE modality = $1 AND ext_id = $2) AS exists,
              (SELECT count(*) FROM ${this.templates} WHERE modality = $1 AND ext_id = $2) AS n`,
      [this.modality, extId],
    );
    return rows[0].exists ? Number(rows[0].n) : undefined;
  }

  async create(extId: string, templates: NewTemplate[], now: string): Promise<boolean> {
    return this.write(async (c) => {
      const res = await c.query(
        `INSERT INTO ${this.persons} (modality, ext_id, created_at, updated_at) VALUES ($1, $2, $3, $3) ON CONFLICT DO NOTHING`,
        [this.modality, extId, now],
      );
      if (res.rowCount === 0) return false;
      await this.insertTemplates(c, extId, templates, now);
      await this.stampPerson(c, extId, await nextStamp(c, this.schema));
      await this.bump(c);
      return true;
    });
  }

  async replaceTemplates(extId: string, templates: NewTemplate[], now: string): Promise<boolean> {
    return this.write(async (c) => {
      const res = await c.query(`UPDATE ${this.persons} SET updated_at = $3 WHERE modality = $1 AND ext_id = $2`, [this.modality, extId, now]);
      if (res.rowCount === 0) return false;
      await c.query(`DELETE FROM ${this.templates} WHERE modality = $1 AND ext_id = $2`, [this.modality, extId]);
      await this.insertTemplates(c, extId, templates, now);
      await this.stampPerson(c, extId, await nextStamp(c, this.schema));
      await this.bump(c);
      return true;
    });
  }

  async appendTemplates(extId: string, templates: NewTemplate[], now: string): Promise<PersonRecord> {
    return this.write(async (c) => {
      const { rows } = await c.query<PersonRow>(
        `INSERT INTO ${this.persons} (modality, ext_id, created_at, updated_at) VALUES ($1, $2, $3, $3)
         ON CONFLICT (modality, ext_id) DO UPDATE SET updated_at = excluded.updated_at
         RETURNING ext_id, created_at, updated_at`,
        [this.modality, extId, now],
      );
      await this.insertTemplates(c, extId, templates, now);
      await this.stampPerson(c, extId, await nextStamp(c, this.schema));
      await this.bump(c);
      const stored = await this.templatesOf([extId], c);
      return { extId, createdAt: rows[0].created_at, updatedAt: rows[0].updated_at, templates: stored.get(extId) ?? [] };
    });
  }

  async delete(extId: string): Promise<boolean> {
    return this.write(async (c) => {
      const res = await c.query(`DELETE FROM ${this.persons} WHERE modality = $1 AND ext_id = $2`, [this.modality, extId]);
      if (res.rowCount === 0) return false;
      const stamp = await nextStamp(c, this.schema);
      const deletedAt = new Date().toISOString();
      await this.tombstone(c, extId, stamp.version, stamp.stationId, deletedAt, stamp.seq);
      await followPersonDelete(c, this.schema, extId, stamp.version, stamp.stationId, deletedAt);
      await this.bump(c);
      return true;
    });
  }

  async page(offset: number, limit: number): Promise<PersonRecord[]> {
    const { rows } = await this.pool.query<PersonRow & { version: string }>(
      `SELECT ext_id, created_at, updated_at, version FROM ${this.persons} WHERE modality = $1 ORDER BY seq LIMIT $2 OFFSET $3`,
      [this.modality, limit, offset],
    );
    const templates = await this.templatesOf(rows.map((r) => r.ext_id));
    return rows.map((r) => ({ extId: r.ext_id, createdAt: r.created_at, updatedAt: r.updated_at, templates: templates.get(r.ext_id) ?? [], version: r.version }));
  }

  async allTemplates(): Promise<Array<{ extId: string; templates: Uint8Array[] }>> {
    const { rows } = await this.pool.query<{ ext_id: string; data: Buffer }>(
      `SELECT ext_id, data FROM ${this.templates} WHERE modality = $1 ORDER BY id`,
      [this.modality],
    );
    const byPerson = new Map<string, Uint8Array[]>();
    for (const r of rows) {
      let list = byPerson.get(r.ext_id);
      if (!list) byPerson.set(r.ext_id, (list = []));
      list.push(toBytes(r.data));
    }
    return [...byPerson].map(([extId, templates]) => ({ extId, templates }));
  }

  async storedTemplateRows(afterId: number, limit: number): Promise<StoredTemplateRow[]> {
    const { rows } = await this.pool.query<{ id: string; ext_id: string; data: Buffer }>(
      `SELECT id, ext_id, data FROM ${this.templates} WHERE modality = $1 AND id > $2 ORDER BY id LIMIT $3`,
      [this.modality, afterId, limit],
    );
    return rows.map((r) => ({ id: Number(r.id), extId: r.ext_id, data: toBytes(r.data) }));
  }

  async rewriteTemplateRows(rows: Array<{ id: number; expected: Uint8Array; data: Uint8Array }>): Promise<number> {
    return inTransaction(this.pool, async (c) => {
      let n = 0;
      for (const r of rows) {
        const res = await c.query(`UPDATE ${this.templates} SET data = $1 WHERE id = $2 AND modality = $3 AND data = $4`, [Buffer.from(r.data), r.id, this.modality, Buffer.from(r.expected)]);
        n += res.rowCount ?? 0;
      }
      return n;
    });
  }

  /** Plain VACUUM marks the dead row versions' space reusable; their bytes stay on the server's disk until overwritten (VACUUM FULL rewrites the table, under an exclusive lock: the operator's choice). */
  async compact(): Promise<void> {
    await this.pool.query(`VACUUM ${this.templates}`);
  }

  async revision(): Promise<number> {
    const key = `${this.schema}:${this.modality}`;
    const known = this.listener?.get(key);
    if (known !== undefined) return known;
    const { rows } = await this.pool.query<{ value: string }>(`SELECT value FROM ${this.revisions} WHERE modality = $1`, [this.modality]);
    const value = Number(rows[0].value);
    this.listener?.set(key, value);
    return value;
  }

  /** Bumped revisions of the transactions in flight, by client (a client serves one transaction at a time). */
  private readonly bumped = new WeakMap<PoolClient, number>();

  /** One write transaction; its new revision is recorded for this node once it has committed. */
  private async write<T>(work: (c: PoolClient) => Promise<T>): Promise<T> {
    let revision: number | undefined;
    const result = await inTransaction(this.pool, async (c) => {
      const r = await work(c);
      revision = this.bumped.get(c);
      this.bumped.delete(c);
      return r;
    });
    if (revision !== undefined) this.listener?.set(`${this.schema}:${this.modality}`, revision);
    return result;
  }

  async changes(afterSeq: number, limit: number): Promise<PersonChange[]> {
    const { rows } = await this.pool.query<{
      kind: 'upsert' | 'delete'; ext_id: string; version: string; seq: string; created_at: string | null; updated_at: string | null; deleted_at: string | null; station_id: string | null;
    }>(
      `SELECT 'upsert' AS kind, ext_id, version, change_seq AS seq, created_at, updated_at, NULL AS deleted_at, NULL AS station_id
         FROM ${this.persons} WHERE modality = $1 AND change_seq > $2
       UNION ALL
       SELECT 'delete', ext_id, version, change_seq, NULL, NULL, deleted_at, station_id
         FROM ${this.tombstones} WHERE modality = $1 AND change_seq > $2
       ORDER BY seq LIMIT $3`,
      [this.modality, afterSeq, limit],
    );
    const templates = await this.templatesOf(rows.filter((r) => r.kind === 'upsert').map((r) => r.ext_id));
    return rows.map((r) =>
      r.kind === 'upsert'
        ? { kind: 'upsert', seq: Number(r.seq), extId: r.ext_id, version: r.version, createdAt: r.created_at!, updatedAt: r.updated_at!, templates: (templates.get(r.ext_id) ?? []).map((t) => ({ data: t.data, position: t.position })) }
        : { kind: 'delete', seq: Number(r.seq), extId: r.ext_id, version: r.version, deletedAt: r.deleted_at!, stationId: r.station_id! },
    );
  }

  async countChanges(afterSeq: number): Promise<number> {
    const { rows } = await this.pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM ${this.persons} WHERE modality = $1 AND change_seq > $2) + (SELECT count(*) FROM ${this.tombstones} WHERE modality = $1 AND change_seq > $2) AS n`,
      [this.modality, afterSeq],
    );
    return Number(rows[0].n);
  }

  async applyChange(change: IncomingChange): Promise<ApplyOutcome> {
    return this.write((c) => this.applyInTransaction(c, change));
  }

  async applyChanges(changes: IncomingChange[]): Promise<ApplyOutcome[]> {
    return this.write(async (c) => {
      const outcomes: ApplyOutcome[] = [];
      for (const change of changes) outcomes.push(await this.applyInTransaction(c, change));
      return outcomes;
    });
  }

  private async applyInTransaction(c: PoolClient, change: IncomingChange): Promise<ApplyOutcome> {
    {
      // The clock row lock serialises this with every other write of the application.
      await c.query(`SELECT 1 FROM ${this.schema}.sync_clock FOR UPDATE`);
      const p = await c.query<{ version: string }>(`SELECT version FROM ${this.persons} WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId]);
      const person = p.rows[0];
      const t = person ? undefined : (await c.query<{ version: string }>(`SELECT version FROM ${this.tombstones} WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId])).rows[0];
      const local = person?.version ?? t?.version ?? '';
      if (change.version <= local) return 'stale';
      const seq = await clockPast(c, this.schema, change.version);
      if (change.kind === 'delete') {
        await this.tombstone(c, change.extId, change.version, change.stationId, change.deletedAt, seq);
        if (!person) return 'tombstone';
        await c.query(`DELETE FROM ${this.persons} WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId]);
        await followPersonDelete(c, this.schema, change.extId, change.version, change.stationId, change.deletedAt);
        await this.bump(c);
        return 'deleted';
      }
      if (person) {
        await c.query(`DELETE FROM ${this.templates} WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId]);
        await c.query(`UPDATE ${this.persons} SET updated_at = $3 WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId, change.updatedAt]);
      } else {
        await c.query(`DELETE FROM ${this.tombstones} WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId]);
        await c.query(`INSERT INTO ${this.persons} (modality, ext_id, created_at, updated_at) VALUES ($1, $2, $3, $4)`, [this.modality, change.extId, change.createdAt, change.updatedAt]);
      }
      await this.insertTemplates(c, change.extId, change.templates, change.updatedAt);
      await c.query(`UPDATE ${this.persons} SET version = $3, change_seq = $4 WHERE modality = $1 AND ext_id = $2`, [this.modality, change.extId, change.version, seq]);
      await this.bump(c);
      return person ? 'updated' : 'created';
    }
  }

  async versionOf(extId: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ version: string }>(
      `SELECT version FROM ${this.persons} WHERE modality = $1 AND ext_id = $2 UNION ALL SELECT version FROM ${this.tombstones} WHERE modality = $1 AND ext_id = $2`,
      [this.modality, extId],
    );
    return rows[0]?.version;
  }

  async purgeTombstones(before: string): Promise<number> {
    const res = await this.pool.query(`DELETE FROM ${this.tombstones} WHERE modality = $1 AND deleted_at < $2`, [this.modality, before]);
    return res.rowCount ?? 0;
  }

  private async stampPerson(c: PoolClient, extId: string, stamp: Stamp): Promise<void> {
    await c.query(`DELETE FROM ${this.tombstones} WHERE modality = $1 AND ext_id = $2`, [this.modality, extId]);
    await c.query(`UPDATE ${this.persons} SET version = $3, change_seq = $4 WHERE modality = $1 AND ext_id = $2`, [this.modality, extId, stamp.version, stamp.seq]);
  }

  private async tombstone(c: PoolClient, extId: string, version: string, stationId: string, deletedAt: string, seq: number): Promise<void> {
    await c.query(
      `INSERT INTO ${this.tombstones} (modality, ext_id, version, station_id, deleted_at, change_seq) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (modality, ext_id) DO UPDATE SET version = excluded.version, station_id = excluded.station_id,
         deleted_at = excluded.deleted_at, change_seq = excluded.change_seq`,
      [this.modality, extId, version, stationId, deletedAt, seq],
    );
  }

  private async bump(c: PoolClient): Promise<void> {
    const { rows } = await c.query<{ value: string }>(`UPDATE ${this.revisions} SET value = value + 1 WHERE modality = $1 RETURNING value`, [this.modality]);
    this.bumped.set(c, Number(rows[0].value));
    await c.query('SELECT pg_notify($1, $2)', [REVISION_CHANNEL, `${this.schema}:${this.modality}:${rows[0].value}`]);
  }

  private async insertTemplates(c: PoolClient, extId: string, templates: NewTemplate[], now: string): Promise<void> {
    for (const t of templates) {
      await c.query(
        `INSERT INTO ${this.templates} (modality, ext_id, position, data, created_at) VALUES ($1, $2, $3, $4, $5)`,
        [this.modality, extId, t.position ?? null, Buffer.from(t.data), now],
      );
    }
  }

  private async templatesOf(extIds: string[], client: Pool | PoolClient = this.pool): Promise<Map<string, StoredTemplate[]>> {
    const out = new Map<string, StoredTemplate[]>();
    if (extIds.length === 0) return out;
    const { rows } = await client.query<TemplateRow>(
      `SELECT ext_id, position, data, created_at FROM ${this.templates} WHERE modality = $1 AND ext_id = ANY($2) ORDER BY id`,
      [this.modality, extIds],
    );
    for (const r of rows) {
      let list = out.get(r.ext_id);
      if (!list) out.set(r.ext_id, (list = []));
      list.push({ data: toBytes(r.data), position: r.position, createdAt: r.created_at });
    }
    return out;
  }
}
