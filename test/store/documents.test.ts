import { mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, type StoreSettings } from '../../src/store/index.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { TENANT_MIGRATIONS as SQLITE_MIGRATIONS } from '../../src/store/sqlite/person-repository.js';
import { TENANT_MIGRATIONS as PG_MIGRATIONS, migrateSchema, tenantSchema } from '../../src/store/postgres/schema.js';
import { formatHlc } from '../../src/sync/hlc.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

const APP = '11111111-2222-3333-4444-555555555555';
const APP2 = '11111111-2222-3333-4444-666666666666';
const now = () => new Date().toISOString();
const text = (s: string) => new TextEncoder().encode(s);

/**
 * The document records (src/store/documents.ts) on SQLite and PostgreSQL: put/get/delete, gone with
 * the person's last modality or its tombstone, their change feed, and the migration of records
 * written by the version before the feed.
 */
function contract(kind: StoreSettings['kind'], settings: () => Promise<{ settings: StoreSettings; cleanup(): Promise<void> }>) {
  describe(`${kind} store: person document records`, () => {
    let store: Store;
    let cleanup: () => Promise<void>;
    beforeAll(async () => {
      const s = await settings();
      cleanup = s.cleanup;
      store = await openStore(s.settings);
    });
    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    it('put, replace, get, delete', async () => {
      const t = await store.tenants.forApplication(APP);
      const docs = t.documents!;
      expect(await docs.get('p1')).toBeUndefined();
      await t.faces.create('p1', [{ data: text('f') }], now());
      expect(await docs.put('p1', text('one'), now())).toBe(true);
      expect(await docs.put('p1', text('two'), now())).toBe(true);
      expect(new TextDecoder().decode((await docs.get('p1'))!.data)).toBe('two');
      expect(await docs.delete('p1')).toBe(true);
      expect(await docs.delete('p1')).toBe(false);
    });

    it('put refuses an ext_id with no face or fingerprint person, in the transaction of the write (nothing written, no feed entry)', async () => {
      const t = await store.tenants.forApplication(APP);
      const before = await t.documents!.countChanges(0);
      expect(await t.documents!.put('nobody', text('doc'), now())).toBe(false);
      expect(await t.documents!.get('nobody')).toBeUndefined();
      expect(await t.documents!.versionOf('nobody')).toBeUndefined();
      expect(await t.documents!.countChanges(0)).toBe(before);
      // a person deleted before the write: refused too
      await t.fingers.create('gone', [{ data: text('g') }], now());
      expect(await t.fingers.delete('gone')).toBe(true);
      expect(await t.documents!.put('gone', text('doc'), now())).toBe(false);
      expect(await t.documents!.get('gone')).toBeUndefined();
    });

    it('goes with the last modality of the person, and with a tombstone applied by sync', async () => {
      const t = await store.tenants.forApplication(APP);
      await t.faces.create('p2', [{ data: text('f') }], now());
      await t.fingers.create('p2', [{ data: text('g') }], now());
      await t.documents!.put('p2', text('doc'), now());
      expect(await t.faces.delete('p2')).toBe(true);
      expect(await t.documents!.get('p2')).toBeDefined();
      expect(await t.fingers.delete('p2')).toBe(true);
      expect(await t.documents!.get('p2')).toBeUndefined();

      await t.faces.create('p3', [{ data: text('f') }], now());
      await t.documents!.put('p3', text('doc'), now());
      // A sync update keeps it; a tombstone from the peer removes it.
      const version = (await t.faces.versionOf('p3'))!;
      expect(await t.faces.applyChange({ kind: 'upsert', extId: 'p3', version: `9999999999998.000000@peer`, createdAt: now(), updatedAt: now(), templates: [{ data: text('f2') }] })).toBe('updated');
      expect(version < '9999999999998').toBe(true);
      expect(await t.documents!.get('p3')).toBeDefined();
      expect(await t.faces.applyChange({ kind: 'delete', extId: 'p3', version: `9999999999999.000000@peer`, deletedAt: now(), stationId: 'peer' })).toBe('deleted');
      expect(await t.documents!.get('p3')).toBeUndefined();
      // the removal is in the documents' feed, with the person delete's version
      const tombs = (await t.documents!.changes(0, 100)).filter((c) => c.kind === 'delete');
      expect(tombs.map((c) => c.extId).sort()).toEqual(['p1', 'p2', 'p3']);
      expect(tombs.find((c) => c.extId === 'p3')!.version).toBe('9999999999999.000000@peer');
      expect(tombs.find((c) => c.extId === 'p2')!.version).toBe(await t.fingers.versionOf('p2'));
    });

    it('feed: every write a newer version and sequence number, in order; applyChanges by the newest version, only for persons here', async () => {
      const t = await store.tenants.forApplication(APP2); // its clock is not the one the test above moved to year 2286
      const docs = t.documents!;
      const start = (await docs.changes(0, 1000)).at(-1)?.seq ?? 0;
      await t.faces.create('q1', [{ data: text('f') }], now());
      await docs.put('q1', text('a'), now());
      const v1 = (await docs.get('q1'))!.version;
      await docs.put('q1', text('b'), now());
      const v2 = (await docs.get('q1'))!.version;
      expect(v2 > v1).toBe(true);
      const feed = await docs.changes(start, 100);
      expect(feed.map((c) => [c.kind, c.extId])).toEqual([['upsert', 'q1']]);
      expect(await docs.countChanges(start)).toBe(1);
      expect(feed[0].kind === 'upsert' && new TextDecoder().decode(feed[0].data)).toBe('b');

      const remote = (ms: number) => formatHlc({ ms, counter: 0, stationId: 'peer' });
      const future = Date.now() + 60_000;
      const up = (extId: string, version: string, body: string) => ({ kind: 'upsert' as const, extId, version, updatedAt: now(), data: text(body) });
      expect(await docs.applyChanges([
        up('q1', remote(1000), 'old'), // older than the local write
        up('nobody', remote(future), 'planted'), // no person
        up('q1', remote(future), 'newer'),
      ])).toEqual(['stale', 'refused', 'updated']);
      expect(new TextDecoder().decode((await docs.get('q1'))!.data)).toBe('newer');
      expect(await docs.get('nobody')).toBeUndefined();
      expect(await docs.versionOf('nobody')).toBeUndefined();
      // a local write after the sync wins although the wall clock is behind the peer's
      await docs.put('q1', text('local'), now());
      expect((await docs.get('q1'))!.version > remote(future)).toBe(true);
      // a remote delete: newer removes and leaves its tombstone; a tombstone for a record not here is kept for the feed
      const del = (extId: string, ms: number) => ({ kind: 'delete' as const, extId, version: remote(ms), deletedAt: now(), stationId: 'peer' });
      expect(await docs.applyChanges([del('q1', future + 1), del('q9', future)])).toEqual(['deleted', 'tombstone']);
      expect(await docs.get('q1')).toBeUndefined();
      // an older upsert does not bring it back; a newer one does
      expect(await docs.applyChanges([up('q1', remote(future), 'again')])).toEqual(['stale']);
      expect(await docs.applyChanges([up('q1', remote(future + 2), 'again')])).toEqual(['created']);
      expect(await docs.delete('q1')).toBe(true);
      const last = (await docs.changes(start, 100)).filter((c) => c.extId === 'q1');
      expect(last).toHaveLength(1);
      expect(last[0]).toMatchObject({ kind: 'delete', extId: 'q1' });
      expect(await docs.purgeTombstones(new Date(Date.now() + 1000).toISOString())).toBeGreaterThanOrEqual(2);
    });
  });
}

describe('document records written before the change feed (SQLite tenant migration 5, PostgreSQL 4)', () => {
  const OLD_TABLE = 'CREATE TABLE IF NOT EXISTS person_documents (ext_id TEXT PRIMARY KEY, data BLOB NOT NULL, updated_at TEXT NOT NULL)';
  const checkMigrated = async (store: Store) => {
    const t = await store.tenants.forApplication(APP);
    const feed = await t.documents!.changes(0, 100);
    expect(feed.map((c) => [c.kind, c.extId])).toEqual([['upsert', 'old1']]);
    expect(feed[0].version).toMatch(/^1763337600000\.000000@[0-9a-f-]{36}$/); // from its updated_at
    expect(feed[0].seq).toBeGreaterThan((await t.faces.changes(0, 100)).at(-1)!.seq);
    expect(await t.documents!.get('orphan')).toBeUndefined(); // a record without a person does not survive
    // the old trigger is gone: deleting the person leaves a document tombstone
    await t.faces.delete('old1');
    expect((await t.documents!.changes(feed[0].seq, 100)).map((c) => [c.kind, c.extId])).toEqual([['delete', 'old1']]);
  };

  it('sqlite', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-docs-old-'));
    mkdirSync(path.join(dataDir, 'applications'));
    const db = openDatabase(path.join(dataDir, 'applications', `${APP}.db`), SQLITE_MIGRATIONS.slice(0, 4));
    db.exec(`${OLD_TABLE};
      CREATE TRIGGER IF NOT EXISTS person_documents_follow_person AFTER DELETE ON persons
        WHEN NOT EXISTS (SELECT 1 FROM persons WHERE ext_id = OLD.ext_id)
        BEGIN DELETE FROM person_documents WHERE ext_id = OLD.ext_id; END;`);
    db.prepare("INSERT INTO persons (modality, ext_id, created_at, updated_at, version, change_seq) VALUES ('face', 'old1', ?, ?, ?, 1)").run(now(), now(), formatHlc({ ms: Date.now(), counter: 0, stationId: 'x' }));
    db.prepare("UPDATE sync_clock SET seq = 1").run();
    db.prepare('INSERT INTO person_documents VALUES (?, ?, ?)').run('old1', Buffer.from('{}'), '2025-11-17T00:00:00.000Z');
    db.prepare('INSERT INTO person_documents VALUES (?, ?, ?)').run('orphan', Buffer.from('{}'), '2025-11-17T00:00:00.000Z');
    db.close();
    const store = await openStore({ kind: 'sqlite', dataDir });
    try {
      await checkMigrated(store);
    } finally {
      await store.close();
    }
  });

  it.skipIf(!testDatabaseUrl)('postgres', async () => {
    const fresh = await freshDatabase();
    const pool = new pg.Pool({ connectionString: fresh.url });
    try {
      const schema = tenantSchema(APP);
      const client = await pool.connect();
      try {
        await migrateSchema(client, schema, PG_MIGRATIONS.slice(0, 3));
      } finally {
        client.release();
      }
      await pool.query(`CREATE TABLE ${schema}.person_documents (ext_id TEXT PRIMARY KEY, data BYTEA NOT NULL, updated_at TEXT NOT NULL)`);
      await pool.query(`CREATE FUNCTION ${schema}.person_documents_follow_person() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN DELETE FROM ${schema}.person_documents WHERE ext_id = OLD.ext_id; RETURN NULL; END $$`);
      await pool.query(`CREATE TRIGGER person_documents_follow_person AFTER DELETE ON ${schema}.persons FOR EACH ROW EXECUTE FUNCTION ${schema}.person_documents_follow_person()`);
      await pool.query(`INSERT INTO ${schema}.persons (modality, ext_id, created_at, updated_at, version, change_seq) VALUES ('face', 'old1', $1, $1, $2, 1)`, [now(), formatHlc({ ms: Date.now(), counter: 0, stationId: 'x' })]);
      await pool.query(`UPDATE ${schema}.sync_clock SET seq = 1`);
      for (const id of ['old1', 'orphan']) await pool.query(`INSERT INTO ${schema}.person_documents VALUES ($1, $2, '2025-11-17T00:00:00.000Z')`, [id, Buffer.from('{}')]);
    } finally {
      await pool.end();
    }
    const store = await openStore({ kind: 'postgres', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-docs-old-')), databaseUrl: fresh.url });
    try {
      await checkMigrated(store);
    } finally {
      await store.close();
      await fresh.drop();
    }
  });
});

describe.skipIf(!testDatabaseUrl)('postgres: a document put racing a person delete', () => {
  it('a put that waits behind an uncommitted person delete is refused once the delete commits (no record left without its person)', async () => {
    const fresh = await freshDatabase();
    const store = await openStore({ kind: 'postgres', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-docs-race-')), databaseUrl: fresh.url });
    const deleter = new pg.Client({ connectionString: fresh.url });
    const watcher = new pg.Client({ connectionString: fresh.url });
    try {
      const t = await store.tenants.forApplication(APP);
      await t.faces.create('r1', [{ data: text('f') }], now());
      await deleter.connect();
      await watcher.connect();
      const schema = tenantSchema(APP);
      // What the person repository's delete does, held open: the person row goes, then the clock row is locked.
      await deleter.query('BEGIN');
      await deleter.query(`DELETE FROM ${schema}.persons WHERE ext_id = 'r1'`);
      await deleter.query(`SELECT 1 FROM ${schema}.sync_clock FOR UPDATE`);
      const put = t.documents!.put('r1', text('doc'), now());
      // wait until the put is blocked on a lock (no timing is asserted)
      for (let i = 0; i < 500; i++) {
        const { rows } = await watcher.query<{ n: string }>("SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'");
        if (Number(rows[0].n) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await deleter.query('COMMIT');
      expect(await put).toBe(false);
      expect(await t.documents!.get('r1')).toBeUndefined();
    } finally {
      await deleter.end().catch(() => undefined);
      await watcher.end().catch(() => undefined);
      await store.close();
      await fresh.drop();
    }
  });
});

contract('sqlite', async () => ({ settings: { kind: 'sqlite', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-docs-')) }, cleanup: async () => {} }));

if (testDatabaseUrl) {
  contract('postgres', async () => {
    const db = await freshDatabase();
    return { settings: { kind: 'postgres', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-docs-')), databaseUrl: db.url }, cleanup: db.drop };
  });
} else {
  describe.skip('postgres store (BIOSTATION_TEST_DATABASE_URL not set)', () => it('skipped', () => {}));
}
