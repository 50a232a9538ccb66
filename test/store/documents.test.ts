import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, type StoreSettings } from '../../src/store/index.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

const APP = '11111111-2222-3333-4444-555555555555';
const now = () => new Date().toISOString();
const text = (s: string) => new TextEncoder().encode(s);

/** The document records (src/store/documents.ts) on SQLite and PostgreSQL: put/get/delete, and gone with the person's last modality or its tombstone. */
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
      const docs = (await store.tenants.forApplication(APP)).documents!;
      expect(await docs.get('p1')).toBeUndefined();
      await docs.put('p1', text('one'), now());
      await docs.put('p1', text('two'), now());
      expect(new TextDecoder().decode((await docs.get('p1'))!.data)).toBe('two');
      expect(await docs.delete('p1')).toBe(true);
      expect(await docs.delete('p1')).toBe(false);
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
    });
  });
}

contract('sqlite', async () => ({ settings: { kind: 'sqlite', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-docs-')) }, cleanup: async () => {} }));

if (testDatabaseUrl) {
  contract('postgres', async () => {
    const db = await freshDatabase();
    return { settings: { kind: 'postgres', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-docs-')), databaseUrl: db.url }, cleanup: db.drop };
  });
} else {
  describe.skip('postgres store (BIOSTATION_TEST_DATABASE_URL not set)', () => it('skipped', () => {}));
}
