import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store, type StoreSettings } from '../../src/store/index.js';
import { formatHlc, nextHlc, parseHlc } from '../../src/sync/hlc.js';
import { freshDatabase, testDatabaseUrl } from '../store/pg-harness.js';

const APP = '11111111-2222-3333-4444-555555555555';
const now = () => new Date().toISOString();
const bytes = (...b: number[]) => new Uint8Array(b);
const remote = (ms: number, counter = 0, stationId = 'peer-b') => formatHlc({ ms, counter, stationId });

describe('hybrid logical clock', () => {
  it('orders by wall time, then counter, then station id, as plain strings', () => {
    expect(remote(1000) < remote(1001)).toBe(true);
    expect(remote(1000, 1) < remote(1001, 0)).toBe(true);
    expect(remote(1000, 1, 'a') < remote(1000, 1, 'b')).toBe(true);
    expect(remote(999) < remote(1000)).toBe(true); // zero-padded
  });
  it('never goes back when the wall clock does; moves on with it otherwise', () => {
    const later = remote(5000, 7, 'x');
    const next = nextHlc(later, 1000, 'me');
    expect(parseHlc(next)).toEqual({ ms: 5000, counter: 8, stationId: 'me' });
    expect(next > later).toBe(true);
    expect(parseHlc(nextHlc(later, 6000, 'me'))).toEqual({ ms: 6000, counter: 0, stationId: 'me' });
  });
});

function feedContract(kind: StoreSettings['kind'], settings: () => Promise<{ settings: StoreSettings; cleanup(): Promise<void> }>) {
  describe(`${kind} change feed`, () => {
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

    it('every local write stamps a newer version and sequence number; a delete leaves a tombstone', async () => {
      const faces = (await store.tenants.forApplication(APP)).faces;
      await faces.create('a', [{ data: bytes(1) }], now());
      await faces.create('b', [{ data: bytes(2) }], now());
      const v1 = (await faces.find('a'))!.version!;
      await faces.replaceTemplates('a', [{ data: bytes(3) }], now());
      const v2 = (await faces.find('a'))!.version!;
      expect(v2 > v1).toBe(true);
      await faces.delete('b');
      const feed = await faces.changes(0, 100);
      expect(feed.map((c) => [c.kind, c.extId])).toEqual([['upsert', 'a'], ['delete', 'b']]);
      expect(feed[0].seq).toBeLessThan(feed[1].seq);
      const tomb = feed[1];
      expect(tomb.kind === 'delete' && tomb.stationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(tomb.version > v2).toBe(true);
      expect(await faces.countChanges(feed[0].seq)).toBe(1);
      expect(await faces.changes(feed[1].seq, 100)).toEqual([]);
      // the fingerprint feed of the same application is separate
      expect(await (await store.tenants.forApplication(APP)).fingers.changes(0, 100)).toEqual([]);
    });

    it('applies a newer remote change, refuses an older one, and moves the clock past what it received', async () => {
      const faces = (await store.tenants.forApplication(APP)).faces;
      const future = Date.now() + 60_000;
      expect(await faces.applyChange({ kind: 'upsert', extId: 'a', version: remote(future), createdAt: now(), updatedAt: now(), templates: [{ data: bytes(9) }] })).toBe('updated');
      expect([...(await faces.find('a'))!.templates[0].data]).toEqual([9]);
      expect(await faces.applyChange({ kind: 'upsert', extId: 'a', version: remote(1000), createdAt: now(), updatedAt: now(), templates: [{ data: bytes(8) }] })).toBe('stale');
      // a local edit after the sync wins over it although the wall clock is behind the peer's
      await faces.replaceTemplates('a', [{ data: bytes(4) }], now());
      expect((await faces.find('a'))!.version! > remote(future)).toBe(true);
      // a deleted person does not come back with an older upsert; a newer one re-creates it
      const bTomb = (await faces.changes(0, 100)).find((c) => c.extId === 'b')!;
      expect(await faces.applyChange({ kind: 'upsert', extId: 'b', version: remote(1000), createdAt: now(), updatedAt: now(), templates: [{ data: bytes(5) }] })).toBe('stale');
      expect(await faces.find('b')).toBeUndefined();
      expect(await faces.applyChange({ kind: 'upsert', extId: 'b', version: remote(future, 5), createdAt: now(), updatedAt: now(), templates: [{ data: bytes(5) }] })).toBe('created');
      expect((await faces.changes(bTomb.seq, 100)).filter((c) => c.kind === 'delete')).toEqual([]);
      // a newer remote delete removes the person; the tombstone keeps the remote version and station
      const before = await faces.revision();
      expect(await faces.applyChange({ kind: 'delete', extId: 'b', version: remote(future, 6), deletedAt: now(), stationId: 'peer-b' })).toBe('deleted');
      expect(await faces.revision()).toBe(before + 1);
      expect(await faces.find('b')).toBeUndefined();
      expect(await faces.applyChange({ kind: 'delete', extId: 'never-here', version: remote(future), deletedAt: now(), stationId: 'peer-b' })).toBe('tombstone');
      expect(await faces.applyChange({ kind: 'delete', extId: 'never-here', version: remote(future), deletedAt: now(), stationId: 'peer-b' })).toBe('stale');
    });

    it('applies a page of changes in one call, each judged against the ones before it', async () => {
      const fingers = (await store.tenants.forApplication(APP)).fingers;
      const t = Date.now();
      const out = await fingers.applyChanges([
        { kind: 'upsert', extId: 'x', version: remote(t, 1), createdAt: now(), updatedAt: now(), templates: [{ data: bytes(1), position: 'UNKNOWN' }] },
        { kind: 'upsert', extId: 'x', version: remote(t, 0), createdAt: now(), updatedAt: now(), templates: [{ data: bytes(2), position: 'UNKNOWN' }] },
        { kind: 'delete', extId: 'x', version: remote(t, 2), deletedAt: now(), stationId: 'peer-b' },
        { kind: 'delete', extId: 'y', version: remote(t, 2), deletedAt: now(), stationId: 'peer-b' },
      ]);
      expect(out).toEqual(['created', 'stale', 'deleted', 'tombstone']);
      expect(await fingers.count()).toBe(0);
    });

    it('tombstones older than the retention are purged', async () => {
      const faces = (await store.tenants.forApplication(APP)).faces;
      expect(await faces.applyChange({ kind: 'delete', extId: 'old', version: remote(2000), deletedAt: '2020-01-01T00:00:00.000Z', stationId: 'peer-b' })).toBe('tombstone');
      expect(await faces.purgeTombstones('2021-01-01T00:00:00.000Z')).toBe(1);
      expect((await faces.changes(0, 1000)).some((c) => c.extId === 'old')).toBe(false);
    });

    it('checkpoints per peer, direction and modality', async () => {
      const log = (await store.tenants.forApplication(APP)).syncLog;
      expect(await log.checkpoint('http://h:1', 'pull', 'face')).toBe(0);
      await log.setCheckpoint('http://h:1', 'pull', 'face', 42);
      await log.setCheckpoint('http://h:1', 'pull', 'face', 43);
      expect(await log.checkpoint('http://h:1', 'pull', 'face')).toBe(43);
      expect(await log.checkpoint('http://h:1', 'push', 'face')).toBe(0);
      await log.record({ peerUrl: 'http://user:pw@h:1/x?y=1', direction: 'push', startedAt: now(), finishedAt: now(), pulled: 1, created: 1, updated: 0, skipped: 0, deleted: 0, refused: 0, error: null });
      expect((await log.recent(1))[0]).toMatchObject({ peerUrl: 'http://h:1', direction: 'push' });
    });
  });
}

feedContract('sqlite', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'biostation-feed-'));
  return { settings: { kind: 'sqlite', dataDir: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
});

describe.skipIf(!testDatabaseUrl)('postgres', () => {
  feedContract('postgres', async () => {
    const db = await freshDatabase();
    return { settings: { kind: 'postgres', dataDir: '', databaseUrl: db.url }, cleanup: db.drop };
  });
});
