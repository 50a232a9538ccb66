import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, type StoreSettings } from '../../src/store/index.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

const APP_A = '11111111-2222-3333-4444-555555555555';
const APP_B = '66666666-7777-8888-9999-000000000000';
const now = () => new Date().toISOString();
const bytes = (...b: number[]) => new Uint8Array(b);

/** One contract, two stores: what a repository promises holds for SQLite and PostgreSQL alike. */
function contract(kind: StoreSettings['kind'], settings: () => Promise<{ settings: StoreSettings; cleanup(): Promise<void> }>) {
  describe(`${kind} store`, () => {
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

    it('create, find, count, templates count; a taken ext_id writes nothing', async () => {
      const faces = (await store.tenants.forApplication(APP_A)).faces;
      expect(await faces.create('p1', [{ data: bytes(1, 2) }, { data: bytes(3) }], now())).toBe(true);
      expect(await faces.create('p1', [{ data: bytes(9) }], now())).toBe(false);
      expect(await faces.count()).toBe(1);
      expect(await faces.templateCount('p1')).toBe(2);
      expect(await faces.templateCount('nobody')).toBeUndefined();
      const person = await faces.find('p1');
      expect(person?.templates.map((t) => [...t.data])).toEqual([[1, 2], [3]]);
      expect(Date.parse(person!.createdAt)).not.toBeNaN();
    });

    it('replace, append, delete, and a revision raised by exactly one per successful write', async () => {
      const fingers = (await store.tenants.forApplication(APP_A)).fingers;
      const r0 = await fingers.revision();
      expect((await fingers.appendTemplates('f1', [{ data: bytes(1), position: 'RIGHT_INDEX' }], now())).templates).toHaveLength(1);
      const appended = await fingers.appendTemplates('f1', [{ data: bytes(2) }], now());
      expect(appended.extId).toBe('f1');
      expect(appended.templates.map((t) => [...t.data])).toEqual([bytes(1), bytes(2)].map((b) => [...b]));
      expect(appended.templates[0].position).toBe('RIGHT_INDEX');
      expect(await fingers.replaceTemplates('f1', [{ data: bytes(7) }], now())).toBe(true);
      expect(await fingers.replaceTemplates('ghost', [{ data: bytes(7) }], now())).toBe(false);
      expect((await fingers.find('f1'))?.templates.map((t) => [...t.data])).toEqual([[7]]);
      expect(await fingers.delete('f1')).toBe(true);
      expect(await fingers.delete('f1')).toBe(false);
      expect(await fingers.revision()).toBe(r0 + 4);
    });

    it('a failed write leaves the person as it was', async () => {
      const faces = (await store.tenants.forApplication(APP_A)).faces;
      await faces.create('atomic', [{ data: bytes(1) }], now());
      const r = await faces.revision();
      await expect(faces.replaceTemplates('atomic', [{ data: bytes(2) }, { data: null as unknown as Uint8Array }], now())).rejects.toThrow();
      expect((await faces.find('atomic'))?.templates.map((t) => [...t.data])).toEqual([[1]]);
      expect(await faces.revision()).toBe(r);
    });

    it('pages are disjoint and in creation order; lists follow the same order', async () => {
      const faces = (await store.tenants.forApplication(APP_B)).faces;
      const ids = Array.from({ length: 7 }, (_, i) => `q${i}`);
      for (const id of ids) await faces.create(id, [{ data: bytes(ids.indexOf(id)) }], now());
      const pages = [await faces.page(0, 3), await faces.page(3, 3), await faces.page(6, 3), await faces.page(9, 3)];
      expect(pages.map((p) => p.map((x) => x.extId))).toEqual([['q0', 'q1', 'q2'], ['q3', 'q4', 'q5'], ['q6'], []]);
      expect((await faces.list()).map((p) => p.extId)).toEqual(ids);
      expect((await faces.allTemplates()).map((p) => p.extId)).toEqual(ids);
    });

    it('applications and modalities never see each other', async () => {
      const a = await store.tenants.forApplication(APP_A);
      const b = await store.tenants.forApplication(APP_B);
      expect(await b.faces.find('p1')).toBeUndefined();
      expect(await a.faces.find('q0')).toBeUndefined();
      expect(await a.fingers.find('p1')).toBeUndefined();
      await expect(store.tenants.forApplication('x; DROP TABLE persons')).rejects.toThrow(/invalid application id/);
    });

    it('the registry keeps applications, thresholds and disabling', async () => {
      const record = {
        id: APP_A, name: 'a', key: `bs_${kind}`, secretHash: '$argon2id$x', createdAt: now(), disabledAt: null, faceThreshold: null, fingerThreshold: null,
        tokenGeneration: 0, dedupPolicy: 'warn' as const, livenessThreshold: null,
      };
      await store.applications.insert(record);
      expect(await store.applications.findByKey(record.key)).toEqual(record);
      expect(await store.applications.updateThresholds(record.key, { faceThreshold: 0.9 })).toBe(true);
      expect(await store.applications.updateThresholds(record.key, { fingerThreshold: 33 })).toBe(true);
      expect(await store.applications.findById(APP_A)).toMatchObject({ faceThreshold: 0.9, fingerThreshold: 33, livenessThreshold: null });
      expect(await store.applications.updateThresholds(record.key, { livenessThreshold: 0.8 })).toBe(true);
      expect(await store.applications.findById(APP_A)).toMatchObject({ faceThreshold: 0.9, fingerThreshold: 33, livenessThreshold: 0.8 });
      expect(await store.applications.disable(record.key, now())).toBe(true);
      expect((await store.applications.list())[0].disabledAt).toEqual(expect.any(String));
      expect(await store.applications.disable('bs_none', now())).toBe(false);
      expect(await store.applications.updateDedupPolicy(record.key, 'block')).toBe(true);
      expect((await store.applications.findByKey(record.key))?.dedupPolicy).toBe('block');
      expect(await store.applications.updateDedupPolicy('bs_none', 'off')).toBe(false);
    });
  });
}

contract('sqlite', async () => ({ settings: { kind: 'sqlite', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-contract-')) }, cleanup: async () => {} }));

if (testDatabaseUrl) {
  contract('postgres', async () => {
    const db = await freshDatabase();
    return { settings: { kind: 'postgres', dataDir: mkdtempSync(path.join(os.tmpdir(), 'bs-contract-')), databaseUrl: db.url }, cleanup: db.drop };
  });
} else {
  describe.skip('postgres store (BIOSTATION_TEST_DATABASE_URL not set)', () => it('skipped', () => {}));
}
