import type { StationConfig } from '../runtime/config.js';
import type { ApplicationRecord, TenantStoreProvider } from '../store/types.js';
import { resolveConfigured, type KeyedPeer } from './peer-registry.js';
import type { SyncService } from './service.js';

export interface ScheduleDeps {
  config: Pick<StationConfig, 'syncPeers' | 'syncIntervalSeconds' | 'syncTombstoneDays'>;
  /**
   * The peers of each round, bound to the applications `apps` by key (default: config.syncPeers
   * through resolveConfigured): the station passes its registry's, so peers added from the Admin screen sync too.
   */
  peers?: (apps: ApplicationRecord[]) => Promise<ReadonlyArray<KeyedPeer>>;
  applications: { list(): Promise<ApplicationRecord[]> };
  stores: TenantStoreProvider;
  sync: SyncService;
  log: { info(o: object, msg: string): void; warn(o: object, msg: string): void };
}

/**
 * Background sync (BIOSTATION_SYNC_PEERS, BIOSTATION_SYNC_INTERVAL_S): every interval, each
 * configured peer is pulled from, then pushed to, for its local application (the one whose key the
 * peer is bound to; names are not unique); then tombstones past
 * the retention (BIOSTATION_SYNC_TOMBSTONE_DAYS) are dropped (also once a day without a schedule,
 * and after each `sync` CLI run). Results land in each application's
 * sync log (the kiosk's Admin shows them); a failing peer is logged and tried again next time.
 * Rounds never overlap. Returns a handle that stops the schedule (station shutdown).
 */
export function startSyncSchedule(deps: ScheduleDeps): { stop(): Promise<void>; runOnce(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  const purge = async (apps: ApplicationRecord[]) => {
    for (const app of apps) {
      await deps.sync.purgeTombstones(await deps.stores.forApplication(app.id), deps.config.syncTombstoneDays).catch(() => 0);
    }
  };
  // Tombstones past the retention go once a day even without a sync schedule.
  const purgeTimer = setInterval(() => void deps.applications.list().then(purge, () => undefined), 24 * 3600 * 1000).unref();

  const round = async () => {
    const apps = await deps.applications.list();
    const configured = () => resolveConfigured(deps.config.syncPeers, apps, (o, msg) => deps.log.warn(o, msg));
    let peers: ReadonlyArray<KeyedPeer>;
    try {
      peers = (await deps.peers?.(apps)) ?? configured();
    } catch (e) {
      deps.log.warn({ err: (e as Error).message }, 'sync peers added from the Admin screen are unreadable; only the configured ones sync');
      peers = configured();
    }
    for (const peer of peers) {
      if (stopped) return;
      const app = apps.find((a) => a.key === peer.appKey && !a.disabledAt);
      if (!app) {
        deps.log.warn({ peer: peer.name }, 'sync peer names no enabled local application');
        continue;
      }
      const store = await deps.stores.forApplication(app.id);
      const target = { url: peer.url, key: peer.key, secret: peer.secret };
      for (const direction of ['pull', 'push'] as const) {
        try {
          const r = direction === 'pull' ? await deps.sync.pull(store, target) : await deps.sync.push(store, target);
          deps.log.info({ peer: peer.name, direction, created: r.created, updated: r.updated, deleted: r.deleted, refused: r.refused }, 'sync done');
        } catch (e) {
          deps.log.warn({ peer: peer.name, direction, code: (e as { code?: string }).code }, 'sync failed');
        }
      }
    }
    await purge(apps);
  };

  const runOnce = () => (running ??= round().finally(() => (running = undefined)));
  const schedule = () => {
    if (stopped || deps.config.syncIntervalSeconds <= 0) return;
    timer = setTimeout(() => void runOnce().finally(schedule), deps.config.syncIntervalSeconds * 1000);
    timer.unref();
  };
  schedule();
  return {
    runOnce,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      clearInterval(purgeTimer);
      await running?.catch(() => undefined);
    },
  };
}
