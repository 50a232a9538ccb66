import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { TENANT_MIGRATIONS } from '../../src/store/sqlite/person-repository.js';
import { SqliteTenantStoreProvider } from '../../src/store/sqlite/tenant-store-provider.js';

const now = () => new Date().toISOString();

describe('SQLite per-application store', () => {
  it('keeps one file per application, in WAL mode with synchronous FULL', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-store-'));
    const provider = new SqliteTenantStoreProvider(dir);
    const id = '11111111-2222-3333-4444-555555555555';
    const store = await provider.forApplication(id);
    await store.faces.create('p', [{ data: new Uint8Array([9]) }], now());
    await provider.close();
    const db = new Database(path.join(dir, 'applications', `${id}.db`));
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(TENANT_MIGRATIONS.length);
    expect(db.prepare('SELECT count(*) AS n FROM templates').get()).toEqual({ n: 1 });
    db.close();
  });

  it('refuses an application id that is not a UUID (no path tricks)', async () => {
    const provider = new SqliteTenantStoreProvider(mkdtempSync(path.join(os.tmpdir(), 'bs-store-')));
    await expect(provider.forApplication('../../etc/passwd')).rejects.toThrow(/invalid application id/);
  });

  it('faces and fingers are separate; a failed write changes nothing', async () => {
    const provider = new SqliteTenantStoreProvider(mkdtempSync(path.join(os.tmpdir(), 'bs-store-')));
    const store = await provider.forApplication('11111111-2222-3333-4444-555555555555');
    expect(await store.faces.create('x', [{ data: new Uint8Array([1]) }], now())).toBe(true);
    expect(await store.faces.create('x', [{ data: new Uint8Array([2]) }], now())).toBe(false);
    expect(await store.fingers.count()).toBe(0);
    expect(await store.faces.templateCount('x')).toBe(1);
    // A template that cannot be written (null data violates NOT NULL) rolls the whole replace back.
    await expect(store.faces.replaceTemplates('x', [{ data: new Uint8Array([3]) }, { data: null as unknown as Uint8Array }], now())).rejects.toThrow();
    const person = await store.faces.find('x');
    expect(person?.templates.map((t) => [...t.data])).toEqual([[1]]);
    expect((await store.fingers.appendTemplates('x', [{ data: new Uint8Array([5]), position: 'RIGHT_INDEX' }], now())).templates).toHaveLength(1);
    expect((await store.fingers.appendTemplates('x', [{ data: new Uint8Array([6]) }], now())).templates.map((t) => [...t.data])).toEqual([[5], [6]]);
    expect((await store.fingers.find('x'))?.templates[0].position).toBe('RIGHT_INDEX');
    expect(await store.fingers.delete('x')).toBe(true);
    expect(await store.fingers.templateCount('x')).toBeUndefined();
    await provider.close();
  });
});
