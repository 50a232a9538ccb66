import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { tenantSchema } from '../../src/store/postgres/schema.js';
import { formatHlc } from '../../src/sync/hlc.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

const APP = '11111111-2222-3333-4444-555555555555';
const now = () => new Date().toISOString();
const text = (s: string) => new TextEncoder().encode(s);

/**
 * A node of the version before the document feed (tenant level 3) sharing a migrated PostgreSQL
 * schema (src/store/postgres/rolling-upgrade.ts). The old node's statements are replayed as that
 * version ran them (git 4d4974b^: schema.ts migrateSchema, documents.ts PgDocumentRepository.ensure,
 * person-repository.ts delete).
 */
describe.skipIf(!testDatabaseUrl)('postgres: an older node on a migrated schema (rolling upgrade)', () => {
  it('cannot lower the schema level nor recreate the old trigger; its person deletes leave document tombstones', async () => {
    const fresh = await freshDatabase();
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-rolling-'));
    const s = tenantSchema(APP);
    const store = await openStore({ kind: 'postgres', dataDir, databaseUrl: fresh.url });
    const old = new pg.Client({ connectionString: fresh.url });
    try {
      const t = await store.tenants.forApplication(APP);
      for (const id of ['a', 'b']) {
        await t.faces.create(id, [{ data: text('f') }], now());
        expect(await t.documents!.put(id, text(`doc ${id}`), now())).toBe(true);
      }
      await old.connect();
      const level = async () => (await old.query<{ version: number }>(`SELECT version FROM ${s}.schema_version`)).rows[0].version;
      const migrated = await level();

      // 1. the old migrateSchema writes its own level
      await old.query(`UPDATE ${s}.schema_version SET version = $1`, [3]);
      expect(await level()).toBe(migrated);

      // 2. the old first use of documents: its CREATE OR REPLACE FUNCTION is refused, so no trigger
      await expect(
        old.query(`CREATE OR REPLACE FUNCTION ${s}.person_documents_follow_person() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN
            IF NOT EXISTS (SELECT 1 FROM ${s}.persons WHERE ext_id = OLD.ext_id) THEN
              DELETE FROM ${s}.person_documents WHERE ext_id = OLD.ext_id;
            END IF;
            RETURN NULL;
          END $$`),
      ).rejects.toMatchObject({ code: '42P13' });
      expect((await old.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'person_documents_follow_person'`)).rows).toHaveLength(0);

      // 3. the old person delete (person row, clock, person tombstone; nothing about documents)
      const version = formatHlc({ ms: Date.now() + 60_000, counter: 0, stationId: 'old-node' });
      await old.query('BEGIN');
      await old.query(`DELETE FROM ${s}.persons WHERE modality = 'face' AND ext_id = 'a'`);
      const seq = Number((await old.query<{ seq: string }>(`UPDATE ${s}.sync_clock SET hlc = $1, seq = seq + 1 RETURNING seq`, [version])).rows[0].seq);
      await old.query(`INSERT INTO ${s}.tombstones (modality, ext_id, version, station_id, deleted_at, change_seq) VALUES ('face', 'a', $1, 'old-node', $2, $3)`, [version, now(), seq]);
      await old.query('COMMIT');
      expect(await t.documents!.get('a')).toBeUndefined();
      const tomb = (await t.documents!.changes(0, 100)).find((c) => c.extId === 'a');
      expect(tomb).toMatchObject({ kind: 'delete', version, stationId: 'old-node' });
      expect(tomb!.seq).toBeGreaterThan(seq);

      // 4. an upgraded node opening the application afterwards (a new process) does not re-run migrations
      const store2 = await openStore({ kind: 'postgres', dataDir, databaseUrl: fresh.url });
      try {
        const t2 = await store2.tenants.forApplication(APP);
        expect(new TextDecoder().decode((await t2.documents!.get('b'))!.data)).toBe('doc b');
        // its own delete: followPersonDelete writes the tombstone, the deferred trigger finds nothing more to do
        expect(await t2.faces.delete('b')).toBe(true);
        const tombs = (await t2.documents!.changes(0, 100)).filter((c) => c.extId === 'b');
        expect(tombs).toHaveLength(1);
        expect(tombs[0]).toMatchObject({ kind: 'delete', version: await t2.faces.versionOf('b') });
      } finally {
        await store2.close();
      }
    } finally {
      await old.end().catch(() => undefined);
      await store.close();
      await fresh.drop();
    }
  });
});
