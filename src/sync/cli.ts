import cliProgress from 'cli-progress';
import type { Command } from 'commander';
import { BiostationError } from '../runtime/errors.js';
import type { StationConfig } from '../runtime/config.js';
import { openStore } from '../store/index.js';
import { stationPaths, storeSettings } from '../station.js';
import { AMBIGUOUS, SyncPeerRegistry, appKeyOf, type KeyedPeer } from './peer-registry.js';
import type { SyncRecord } from '../store/types.js';
import { assertComparable } from './checks.js';
import { DEFAULT_PEER_LIMITS } from './peer-client.js';
import { keyringSealer } from './peer-secrets.js';
import { SyncService, type SyncOptions } from './service.js';

interface SyncCliOptions {
  from?: string;
  to?: string;
  key?: string;
  secret?: string;
  peer?: string;
  app?: string;
  dryRun?: boolean;
  json?: boolean;
  pageSize?: string;
}

/**
 * `biostation sync pull|push`: the station operator's sync, on the data directory directly (the
 * station may be running or not: SQLite's WAL and busy timeout let both write, and a running
 * station notices the new revision before its next search). The peer is given on the command line
 * (`--from`/`--to`, `--key`, `--secret`, or BIOSTATION_PEER_SECRET for the secret) or by name from
 * BIOSTATION_SYNC_PEERS (`--peer`); nothing of it is stored but the checkpoint and the log entry
 * with the peer's origin. Templates are checked without loading the face networks
 * (sync/checks.ts). Exit status 1 on failure, with one line (or one JSON object with --json).
 */
export function registerSyncCommands(program: Command, config: () => StationConfig): void {
  const sync = program.command('sync').description("sync this station's application with a peer station (persons and deletions; newest change wins)");
  for (const direction of ['pull', 'push'] as const) {
    sync
      .command(direction)
      .description(direction === 'pull' ? "bring the peer application's changes here" : "send this application's changes to the peer")
      .option(direction === 'pull' ? '--from <url>' : '--to <url>', 'base URL of the peer station, e.g. http://10.0.0.7:8080')
      .option('--key <key>', "key of the peer's application")
      .option('--secret <secret>', "secret of the peer's application (or env BIOSTATION_PEER_SECRET)")
      .option('--peer <name>', 'a peer configured in BIOSTATION_SYNC_PEERS or added from the Admin screen, instead of --from/--to, --key, --secret')
      .option('--app <name>', 'local application, by name or key (default: the only one, or the peer\'s)')
      .option('--dry-run', 'read and compare only: write nothing, move no checkpoint')
      .option('--page-size <n>', `changes per request (default ${DEFAULT_PEER_LIMITS.pageSize})`)
      .option('--json', 'print one JSON object')
      .action(async (opts: SyncCliOptions) => {
        const code = await runSync(direction, opts, config());
        if (code !== 0) process.exitCode = code;
      });
  }
}

async function runSync(direction: 'pull' | 'push', opts: SyncCliOptions, config: StationConfig): Promise<number> {
  const fail = (code: string, message: string, record?: SyncRecord) => {
    if (opts.json) process.stdout.write(`${JSON.stringify({ error: code, message, ...(record ? { sync: record } : {}) })}\n`);
    else process.stderr.write(`biostation: ${message}\n`);
    return 1;
  };
  if (!opts.peer && !((opts.from ?? opts.to) && opts.key && (opts.secret ?? process.env.BIOSTATION_PEER_SECRET))) {
    return fail('INVALID_REQUEST', `give the peer: ${direction === 'pull' ? '--from' : '--to'} URL --key K --secret S (or --peer NAME)`);
  }
  const pageSize = opts.pageSize === undefined ? DEFAULT_PEER_LIMITS.pageSize : Number(opts.pageSize);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 1000) return fail('INVALID_REQUEST', '--page-size must be 1..1000');

  const store = await openStore(storeSettings(config)); // the station's own settings: templates stay encrypted at rest
  try {
    const all = await store.applications.list();
    const apps = all.filter((a) => !a.disabledAt);
    // --app: the enabled application of that key, else the only one of that name (names are not unique).
    let app: (typeof apps)[number] | undefined;
    if (opts.app) {
      const key = appKeyOf(opts.app, apps);
      if (key === AMBIGUOUS) return fail('INVALID_REQUEST', `several enabled applications are named ${opts.app}: give its key with --app`);
      if (key === undefined) return fail('INVALID_REQUEST', `no enabled application named ${opts.app}`);
      app = apps.find((a) => a.key === key);
    }
    // --peer: configured peers and those added from the Admin screen, each bound to one application by key; --app, when given, always filters.
    let named: KeyedPeer | undefined;
    if (opts.peer) {
      const sealer = store.keyring && keyringSealer(store.keyring, async (appKey) => all.find((a) => a.key === appKey)?.id);
      const candidates = (await new SyncPeerRegistry(store.syncPeers, config.syncPeers, { sealer, legacyFile: stationPaths(config.dataDir).syncPeers }).all(all)).filter((p) => p.name === opts.peer);
      const mine = app ? candidates.filter((p) => p.appKey === app!.key) : candidates;
      if (mine.length === 0 && candidates.length > 0) {
        const owners = candidates.map((p) => all.find((a) => a.key === p.appKey)?.name ?? p.appKey).join(', ');
        return fail('INVALID_REQUEST', `the peer named ${opts.peer} belongs to application ${owners}, not ${opts.app}`);
      }
      if (mine.length === 0) return fail('INVALID_REQUEST', `no peer named ${opts.peer} in BIOSTATION_SYNC_PEERS or added from the Admin screen`);
      if (mine.length > 1) return fail('INVALID_REQUEST', `several applications have a peer named ${opts.peer}: name one with --app`);
      named = mine[0];
      app ??= apps.find((a) => a.key === named!.appKey);
      if (!app) return fail('INVALID_REQUEST', `the application of the peer named ${opts.peer} is disabled`);
    }
    if (!app && apps.length === 1) app = apps[0];
    if (!app) return fail('INVALID_REQUEST', apps.length === 0 ? 'no enabled application' : 'several applications: name one with --app');
    const url = named?.url ?? opts.from ?? opts.to;
    const key = named?.key ?? opts.key;
    const secret = named?.secret ?? opts.secret ?? process.env.BIOSTATION_PEER_SECRET;
    if (!url || !key || !secret) return fail('INVALID_REQUEST', `give the peer: ${direction === 'pull' ? '--from' : '--to'} URL --key K --secret S (or --peer NAME)`);
    const tenant = await store.tenants.forApplication(app.id);
    const service = new SyncService(async (m) => (t) => assertComparable(m, t), { ...DEFAULT_PEER_LIMITS, pageSize });

    const bar = !opts.json && process.stderr.isTTY ? new cliProgress.SingleBar({ format: ` ${direction} {modality} [{bar}] {value}/{total} changes`, stream: process.stderr, hideCursor: true }, cliProgress.Presets.shades_classic) : undefined;
    let current: string | undefined;
    const options: SyncOptions = {
      dryRun: opts.dryRun,
      onProgress: (p) => {
        if (!bar) return;
        if (current !== p.modality) {
          if (current) bar.stop();
          bar.start(p.total, p.done, { modality: p.modality });
          current = p.modality;
        } else {
          bar.setTotal(p.total);
          bar.update(p.done, { modality: p.modality });
        }
      },
    };
    let record: SyncRecord;
    try {
      record = direction === 'pull' ? await service.pull(tenant, { url, key, secret }, options) : await service.push(tenant, { url, key, secret }, options);
    } catch (e) {
      bar?.stop();
      if (e instanceof BiostationError) return fail(e.code, e.message, (e as { sync?: SyncRecord }).sync);
      throw e;
    }
    bar?.stop();
    if (!opts.dryRun) await service.purgeTombstones(tenant, config.syncTombstoneDays);
    const summary = { app: app.name, dryRun: !!opts.dryRun, ...record };
    const text = `${direction} ${record.peerUrl} -> ${app.name}${opts.dryRun ? ' (dry run: nothing written)' : ''}: ` +
      `${record.pulled} changes, ${record.created} created, ${record.updated} updated, ${record.deleted ?? 0} deleted, ` +
      `${record.skipped} skipped${record.refused ? `, ${record.refused} refused (templates of another model version)` : ''}`;
    process.stdout.write(`${opts.json ? JSON.stringify(summary) : text}\n`);
    return 0;
  } finally {
    await store.close();
  }
}
