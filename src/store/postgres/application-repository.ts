import type { Pool } from 'pg';
import { toApplicationRecord as toRecord, type ApplicationRow as Row } from '../rows.js';
import type { ApplicationRecord, ApplicationRepository } from '../types.js';
import { REGISTRY_SCHEMA as S } from './schema.js';

/** The station registry of applications in PostgreSQL (schema `biostation`), shared by every API node. */
export class PgApplicationRepository implements ApplicationRepository {
  constructor(private readonly pool: Pool) {}

  async insert(app: ApplicationRecord): Promise<void> {
    await this.pool.query(
      `INSERT INTO ${S}.applications (id, name, key, secret_hash, created_at, disabled_at, face_threshold, finger_threshold, token_generation, dedup_policy)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [app.id, app.name, app.key, app.secretHash, app.createdAt, app.disabledAt, app.faceThreshold, app.fingerThreshold, app.tokenGeneration ?? 0, app.dedupPolicy ?? 'warn'],
    );
  }

  async findByKey(key: string): Promise<ApplicationRecord | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM ${S}.applications WHERE key = $1`, [key]);
    return rows[0] && toRecord(rows[0]);
  }

  async findById(id: string): Promise<ApplicationRecord | undefined> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM ${S}.applications WHERE id = $1`, [id]);
    return rows[0] && toRecord(rows[0]);
  }

  async list(): Promise<ApplicationRecord[]> {
    const { rows } = await this.pool.query<Row>(`SELECT * FROM ${S}.applications ORDER BY created_at, name`);
    return rows.map(toRecord);
  }

  async disable(key: string, at: string): Promise<boolean> {
    const res = await this.pool.query(`UPDATE ${S}.applications SET disabled_at = coalesce(disabled_at, $1), token_generation = token_generation + 1 WHERE key = $2`, [at, key]);
    return (res.rowCount ?? 0) > 0;
  }

  async updateSecretHash(key: string, secretHash: string): Promise<boolean> {
    const res = await this.pool.query(`UPDATE ${S}.applications SET secret_hash = $1, token_generation = token_generation + 1 WHERE key = $2`, [secretHash, key]);
    return (res.rowCount ?? 0) > 0;
  }

  async updateThresholds(key: string, t: { faceThreshold?: number | null; fingerThreshold?: number | null; livenessThreshold?: number | null }): Promise<boolean> {
    const res = await this.pool.query(
      `UPDATE ${S}.applications SET
         face_threshold = CASE WHEN $2 THEN $3::double precision ELSE face_threshold END,
         finger_threshold = CASE WHEN $4 THEN $5::double precision ELSE finger_threshold END,
         liveness_threshold = CASE WHEN $6 THEN $7::double precision ELSE liveness_threshold END
       WHERE key = $1`,
      [key, t.faceThreshold !== undefined, t.faceThreshold ?? null, t.fingerThreshold !== undefined, t.fingerThreshold ?? null, t.livenessThreshold !== undefined, t.livenessThreshold ?? null],
    );
    return (res.rowCount ?? 0) > 0;
  }

  async updateDedupPolicy(key: string, policy: 'off' | 'warn' | 'block'): Promise<boolean> {
    const res = await this.pool.query(`UPDATE ${S}.applications SET dedup_policy = $1 WHERE key = $2`, [policy, key]);
    return (res.rowCount ?? 0) > 0;
  }
}
