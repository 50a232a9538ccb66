import { describe, expect, it } from 'vitest';
import { startSyncSchedule, type ScheduleDeps } from '../../src/sync/scheduler.js';
import type { ApplicationRecord } from '../../src/store/types.js';
import type { KeyedPeer } from '../../src/sync/peer-registry.js';

/** The background sync runs each peer for the application it is bound to by KEY, never the first application of the same name. */
describe('sync schedule: two applications of the same name', () => {
  const app = (id: string, key: string, name: string) => ({ id, key, name, disabledAt: null }) as unknown as ApplicationRecord;
  const apps = [app('id-1', 'bs_k1', 'x'), app('id-2', 'bs_k2', 'x')];
  const peer = { url: 'https://peer.example', key: 'bs_peer', secret: 's' };

  const run = async (deps: Partial<ScheduleDeps>) => {
    const calls: string[] = [];
    const warnings: string[] = [];
    const record = { peerUrl: peer.url, startedAt: '', finishedAt: '', pulled: 0, created: 0, updated: 0, deleted: 0, skipped: 0, refused: 0, error: null };
    const schedule = startSyncSchedule({
      config: { syncPeers: [], syncIntervalSeconds: 0, syncTombstoneDays: 30 },
      applications: { list: async () => apps },
      stores: { forApplication: async (id: string) => ({ id }) } as unknown as ScheduleDeps['stores'],
      sync: {
        pull: async (store: { id: string }) => (calls.push(`pull ${store.id}`), record),
        push: async (store: { id: string }) => (calls.push(`push ${store.id}`), record),
        purgeTombstones: async () => 0,
      } as unknown as ScheduleDeps['sync'],
      log: { info: () => undefined, warn: (_o, msg) => warnings.push(msg) },
      ...deps,
    });
    await schedule.runOnce();
    await schedule.stop();
    return { calls, warnings };
  };

  it('an admin-added peer of the second application syncs that application', async () => {
    const peers: KeyedPeer[] = [{ appKey: 'bs_k2', name: 'field', ...peer }];
    expect((await run({ peers: async () => peers })).calls).toEqual(['pull id-2', 'push id-2']);
  });

  it('a configured peer naming the shared name syncs nothing (warned); one naming the key syncs that application', async () => {
    const ambiguous = await run({ config: { syncPeers: [{ name: 'field', app: 'x', ...peer }], syncIntervalSeconds: 0, syncTombstoneDays: 30 } });
    expect(ambiguous.calls).toEqual([]);
    expect(ambiguous.warnings).toEqual([expect.stringContaining('several applications have this name')]);
    const byKey = await run({ config: { syncPeers: [{ name: 'field', app: 'bs_k2', ...peer }], syncIntervalSeconds: 0, syncTombstoneDays: 30 } });
    expect(byKey.calls).toEqual(['pull id-2', 'push id-2']);
  });
});
