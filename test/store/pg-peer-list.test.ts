import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { masterKeyOf } from '../../src/store/encryption/master-key.js';
import { openStore } from '../../src/store/index.js';
import { SyncPeerRegistry } from '../../src/sync/peer-registry.js';
import { keyringSealer } from '../../src/sync/peer-secrets.js';
import { freshDatabase, testDatabaseUrl } from './pg-harness.js';

/**
 * Sync peers added from the Admin screen on a scaled-out station (src/store/postgres/peer-list.ts):
 * two API nodes (two stores on one database) see the same list, each with its sealed secret opened
 * by the shared data keys; conditional writes do not lose a change.
 */
describe.skipIf(!testDatabaseUrl)('postgres: the admin-added sync peers are shared by every API node', () => {
  it('a peer added on one node is listed and used by the other; a removal on the other is seen by the first', async () => {
    const fresh = await freshDatabase();
    const dirs = [0, 1].map(() => mkdtempSync(path.join(os.tmpdir(), 'bs-pg-peers-')));
    // both nodes hold the same master key (given by the host), as a scaled-out station's nodes do
    const master = masterKeyOf(Buffer.alloc(32, 7));
    const stores = await Promise.all(dirs.map((dataDir) => openStore({ kind: 'postgres', dataDir, databaseUrl: fresh.url, encryption: { file: path.join(dataDir, 'master.key'), provided: master } })));
    try {
      await stores[0].applications.insert({ id: '11111111-2222-3333-4444-555555555555', name: 'central', key: 'bs_central', secretHash: 'x', createdAt: new Date().toISOString(), disabledAt: null, faceThreshold: null, fingerThreshold: null });
      const apps = await stores[0].applications.list();
      const nodes = stores.map((s) => new SyncPeerRegistry(s.syncPeers, [], { sealer: keyringSealer(s.keyring!, async (k) => apps.find((a) => a.key === k)?.id), log: () => undefined }));
      await nodes[0].add(apps, 'bs_central', { name: 'field', url: 'https://field.example', key: 'bs_field', secret: 'field-secret' });
      expect((await nodes[1].all(apps)).map((p) => [p.name, p.url, p.secret])).toEqual([['field', 'https://field.example', 'field-secret']]);
      const stored = await stores[1].syncPeers.read();
      expect(stored.body).not.toContain('field-secret');
      // both add at once: both kept (one write retries on the other's list)
      await Promise.all([
        nodes[0].add(apps, 'bs_central', { name: 'a', url: 'https://a.example', key: 'k', secret: 's' }),
        nodes[1].add(apps, 'bs_central', { name: 'b', url: 'https://b.example', key: 'k', secret: 's' }),
      ]);
      expect((await nodes[0].viewsOf(apps, 'bs_central')).map((p) => p.name).sort()).toEqual(['a', 'b', 'field']);
      await nodes[1].remove(apps, 'bs_central', 'field');
      expect((await nodes[0].viewsOf(apps, 'bs_central')).map((p) => p.name).sort()).toEqual(['a', 'b']);
      // a stale version is refused
      const { version } = await stores[0].syncPeers.read();
      expect(await stores[0].syncPeers.write('{"peers":[]}', version - 1)).toBe(false);
      expect(await stores[0].syncPeers.write('{"peers":[]}', 0)).toBe(false);
    } finally {
      for (const s of stores) await s.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      await fresh.drop();
    }
  }, 60_000);

  it('API nodes starting together create the tables they make on first use once (no catalog race)', async () => {
    for (let trial = 0; trial < 3; trial++) {
      const fresh = await freshDatabase();
      const dirs = [0, 1, 2, 3].map(() => mkdtempSync(path.join(os.tmpdir(), 'bs-pg-first-')));
      const master = masterKeyOf(Buffer.alloc(32, 9));
      const stores = [];
      for (const dataDir of dirs) stores.push(await openStore({ kind: 'postgres', dataDir, databaseUrl: fresh.url, encryption: { file: path.join(dataDir, 'master.key'), provided: master } }));
      try {
        const firstUses = await Promise.allSettled(stores.flatMap((s) => [
          s.syncPeers.read(),
          s.audit.query({ limit: 1 }),
          s.keyring!.dataKey('11111111-2222-3333-4444-555555555555'),
        ]));
        expect(firstUses.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
      } finally {
        for (const s of stores) await s.close();
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
        await fresh.drop();
      }
    }
  }, 120_000);
});
