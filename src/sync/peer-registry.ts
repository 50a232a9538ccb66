import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import type { StationConfig } from '../runtime/config.js';
import type { PeerListStore } from '../store/types.js';
import { peerBase } from './peer-client.js';
import type { PeerSecretSealer } from './peer-secrets.js';

/** A sync peer as configured (BIOSTATION_SYNC_PEERS): local application (`app`: its name, or its key), peer name, peer base URL and the peer application's credential. */
export type SyncPeer = StationConfig['syncPeers'][number];

/** A peer bound to one local application by its KEY (application names are not unique). */
export interface KeyedPeer {
  /** Key of the local application the peer belongs to. */
  appKey: string;
  name: string;
  url: string;
  /** Key of the peer's application on the peer station. */
  key: string;
  secret: string;
}

/** The local applications, as the registry resolves them (ApplicationRecord has these fields). */
export interface LocalApp {
  key: string;
  name: string;
}

export type WarnLog = (fields: object, message: string) => void;
const stderrWarn: WarnLog = (fields, message) => process.stderr.write(`biostation: warning: ${message} ${JSON.stringify(fields)}\n`);

/** Where a peer comes from: the operator's configuration (read-only here) or the station-admin API. */
export type PeerSource = 'config' | 'admin';

/** A peer as shown to the station admin: never its secret. */
export interface PeerView {
  /** Key of the local application. */
  appKey: string;
  name: string;
  url: string;
  key: string;
  source: PeerSource;
}

export type PeerErrorCode = 'INVALID_PEER_NAME' | 'INVALID_PEER_URL' | 'INVALID_PEER_CREDENTIAL' | 'PEER_EXISTS' | 'PEER_NOT_FOUND' | 'PEER_CONFIGURED' | 'TOO_MANY_PEERS' | 'PEER_FILE_UNREADABLE' | 'PEER_LIST_BUSY';

export class SyncPeerError extends Error {
  constructor(
    readonly code: PeerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SyncPeerError';
  }
}

/** Peer names: letters, digits, `.`, `_`, `-`, 1..64 (the rule of BIOSTATION_SYNC_PEERS). */
const PEER_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Most peers the admin API stores (the configuration's limit). */
const MAX_STORED_PEERS = 32;
const MAX_CREDENTIAL_CHARS = 200;

/** 127.0.0.0/8, ::1 or `localhost`: the only hosts an admin-added peer may reach over plain http. */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]') return true;
  return isIPv4(h) && h.startsWith('127.');
}

/**
 * Checks a peer URL given through the admin API: what peerBase accepts (scheme, host, port, path;
 * no user, password, query or fragment), and https unless the host is loopback (a secret and
 * biometric templates never cross a network in clear). Returns the base URL. @throws SyncPeerError INVALID_PEER_URL
 */
function checkAdminPeerUrl(raw: string): string {
  let base: string;
  try {
    base = peerBase(raw);
  } catch (e) {
    throw new SyncPeerError('INVALID_PEER_URL', (e as Error).message);
  }
  const url = new URL(base);
  if (url.protocol !== 'https:' && !isLoopbackHost(url.hostname)) throw new SyncPeerError('INVALID_PEER_URL', 'The peer URL must be https (plain http only to a loopback address)');
  if (base.length > 500) throw new SyncPeerError('INVALID_PEER_URL', 'The peer URL is longer than 500 characters');
  return base;
}

/**
 * Which local application a configured peer's `app` names: the application whose KEY it is, else
 * the only application of that NAME. Two applications of that name (names are not unique): none,
 * with a warning (give the key in BIOSTATION_SYNC_PEERS instead). No such application: none, with a warning.
 */
export function resolveConfigured(configured: readonly SyncPeer[], apps: readonly LocalApp[], warn: WarnLog = stderrWarn): KeyedPeer[] {
  return configured.flatMap((p) => {
    const key = appKeyOf(p.app, apps);
    if (key === AMBIGUOUS) warn({ peer: p.name, app: p.app }, 'configured sync peer ignored: several applications have this name (give the application key in "app")');
    else if (key === undefined) warn({ peer: p.name, app: p.app }, 'configured sync peer ignored: it names no local application');
    else return [{ appKey: key, name: p.name, url: p.url, key: p.key, secret: p.secret }];
    return [];
  });
}

/** appKeyOf's answer when several applications share the name given. */
export const AMBIGUOUS = Symbol('ambiguous');
/** The key of the application `ref` names (its key, else its unique name); AMBIGUOUS or undefined when none. */
export function appKeyOf(ref: string, apps: readonly LocalApp[]): string | typeof AMBIGUOUS | undefined {
  if (apps.some((a) => a.key === ref)) return ref;
  const named = apps.filter((a) => a.name === ref);
  if (named.length > 1) return AMBIGUOUS;
  return named[0]?.key;
}

/**
 * One entry of sync-peers.json as found: `appKey` (current) or `app` (an application name: files
 * written before keys); `sealedSecret` (current, when the station seals) or `secret` (in clear: files
 * written before sealing, or a registry without a sealer).
 */
type StoredEntry = Partial<KeyedPeer> & { app?: unknown; sealedSecret?: unknown };
/** A stored peer bound to its application, its secret still sealed when it was stored sealed. */
type StoredPeer = Omit<KeyedPeer, 'secret'> & ({ secret: string; sealedSecret?: undefined } | { secret?: undefined; sealedSecret: string });
/** What a sealed secret is bound to (besides its application): the entry's name, URL and peer key. */
const sealContext = (p: { name: string; url: string; key: string }): string => `${p.name}\0${p.url}\0${p.key}`;

/** How many times a change is tried again when another writer changed the list meanwhile. */
const WRITE_TRIES = 3;

export interface SyncPeerRegistryOptions {
  /** Where warnings go (default: stderr). */
  log?: WarnLog;
  /** Where information goes (the import of an old file; default: `log`). */
  info?: WarnLog;
  /**
   * Seals secrets at rest and opens them (the station and the CLI: peer-secrets.ts keyringSealer).
   * With one, a stored entry whose secret is in clear is never used (it can only have been written
   * around the station). Without one (tests, a store without encryption) secrets are stored in clear.
   */
  sealer?: PeerSecretSealer;
  /** `<dataDir>/sync-peers.json` of stations older than the stored list: imported once into the store (its secrets sealed), then removed. */
  legacyFile?: string;
}

/**
 * The station's sync peers: those of the configuration (BIOSTATION_SYNC_PEERS or the config file,
 * set by the operator, read-only here) and those the station admin added from the kiosk's Admin
 * screen (POST /api/v1/admin/applications/{key}/sync-peers), kept with the station registry
 * (`list`: table `sync_peers` of station.db, or of the PostgreSQL registry schema, so that every API
 * node sees and uses the same peers) as one document `{ peers: [{ appKey, name, url, key,
 * sealedSecret }] }`. Changes are conditional on the version read and tried again when another node
 * changed the list meanwhile. With a `sealer` each secret is sealed under its application's data
 * key, bound to the entry's name, URL and peer key, and a secret that cannot be sealed is not stored;
 * an entry with a secret in clear, or a URL an admin could not have entered, is ignored with a
 * warning (it was written around the station). A sealed secret that does not open (the entry was
 * edited, or the application's key is gone) leaves that peer out, with a warning. The list is read
 * on every call, so the `sync` CLI and a running station see the same peers.
 *
 * Every peer belongs to one local application by its KEY (`appKey`): application names are not
 * unique, so a name would hand one application's peer credential to every application of that name.
 * Configured peers name their application by key or by name (resolveConfigured: a name two
 * applications share is ignored with a warning). An old sync-peers.json (one per node: an entry
 * naming its application by `app`, a name, and its secret in clear) is imported on the first read:
 * each entry bound to the only application of that name, sealed, up to MAX_STORED_PEERS; what cannot
 * be imported (no or several applications of that name, no room, a URL refused) stays in the file,
 * warned. A corrupt list is logged and read as empty; adding or removing then fails with
 * PEER_FILE_UNREADABLE instead of overwriting it. A name is unique per local application across
 * both sources.
 */
export class SyncPeerRegistry {
  private readonly log: WarnLog;
  /** The import of the old file, once per registry (a failure to remove it is not retried on every read). */
  private legacy?: Promise<void>;

  constructor(
    private readonly list: PeerListStore,
    private readonly configured: readonly SyncPeer[],
    private readonly options: SyncPeerRegistryOptions = {},
  ) {
    this.log = options.log ?? stderrWarn;
  }

  private readonly warned = new Set<string>();
  /** Each distinct warning once per registry (the scheduler and every request read the peers). */
  private readonly warn: WarnLog = (fields, message) => {
    const seen = `${message} ${JSON.stringify(fields)}`;
    if (this.warned.has(seen)) return;
    this.warned.add(seen);
    this.log(fields, message);
  };

  /**
   * Every peer with its secret (opened), bound to a local application of `apps` by key: the
   * configuration's first, then the admin's in the order added; with `appKey`, that application's
   * only (no other application's secret is opened). Never throws for a bad list (logged, read as
   * empty) nor for a secret that does not open (that peer left out, logged).
   */
  async all(apps: readonly LocalApp[], appKey?: string): Promise<Array<KeyedPeer & { source: PeerSource }>> {
    const { sealer } = this.options;
    const mine = <T extends { appKey: string }>(ps: T[]): T[] => (appKey === undefined ? ps : ps.filter((p) => p.appKey === appKey));
    const opened = await Promise.all(mine(await this.stored(apps)).map(async (p): Promise<KeyedPeer[]> => {
      if (p.secret !== undefined) return [{ appKey: p.appKey, name: p.name, url: p.url, key: p.key, secret: p.secret }];
      try {
        if (!sealer) throw new Error('this registry has no key to open sealed secrets');
        return [{ appKey: p.appKey, name: p.name, url: p.url, key: p.key, secret: await sealer.open(p.appKey, sealContext(p), p.sealedSecret) }];
      } catch (e) {
        this.warn({ peer: p.name, err: (e as Error).message }, "sync peers: a peer's secret does not open with this station's key (the entry was changed, or its application's key is gone); the peer is left out: add it again from the Admin screen");
        return [];
      }
    }));
    return [
      ...mine(resolveConfigured(this.configured, apps, this.warn)).map((p) => ({ ...p, source: 'config' as const })),
      ...opened.flat().map((p) => ({ ...p, source: 'admin' as const })),
    ];
  }

  /** The peers of the local application of key `appKey`, secrets left out (and not opened). */
  async viewsOf(apps: readonly LocalApp[], appKey: string): Promise<PeerView[]> {
    const view = (p: Omit<KeyedPeer, 'secret'>, source: PeerSource): PeerView => ({ appKey: p.appKey, name: p.name, url: p.url, key: p.key, source });
    return [
      ...resolveConfigured(this.configured, apps, this.warn).map((p) => view(p, 'config')),
      ...(await this.stored(apps)).map((p) => view(p, 'admin')),
    ].filter((p) => p.appKey === appKey);
  }

  /**
   * Adds a peer of the local application of key `appKey` (the caller checked that it exists in `apps`).
   * @throws SyncPeerError INVALID_PEER_NAME, INVALID_PEER_URL, INVALID_PEER_CREDENTIAL, PEER_EXISTS, TOO_MANY_PEERS, PEER_FILE_UNREADABLE, PEER_LIST_BUSY; Error when the secret cannot be sealed (nothing stored)
   */
  async add(apps: readonly LocalApp[], appKey: string, peer: Omit<KeyedPeer, 'appKey'>): Promise<PeerView> {
    if (!PEER_NAME.test(peer.name)) throw new SyncPeerError('INVALID_PEER_NAME', 'A peer name is 1 to 64 letters, digits, ".", "_" or "-"');
    const url = checkAdminPeerUrl(peer.url);
    for (const [field, value] of [['key', peer.key], ['secret', peer.secret]] as const) {
      if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_CREDENTIAL_CHARS) throw new SyncPeerError('INVALID_PEER_CREDENTIAL', `The peer application's ${field} must be 1 to ${MAX_CREDENTIAL_CHARS} characters`);
    }
    const added = await this.sealed({ appKey, name: peer.name, url, key: peer.key, secret: peer.secret });
    await this.change(apps, async (stored) => {
      if (resolveConfigured(this.configured, apps, () => undefined).some((p) => p.appKey === appKey && p.name === peer.name) || this.keyed(stored, apps).some(({ peer: p }) => p?.appKey === appKey && p.name === peer.name)) {
        throw new SyncPeerError('PEER_EXISTS', `This application already has a peer named ${peer.name}`);
      }
      if (stored.length >= MAX_STORED_PEERS) throw new SyncPeerError('TOO_MANY_PEERS', `At most ${MAX_STORED_PEERS} peers can be added here`);
      return [...this.keyed(stored, apps).map(({ peer: p, raw }) => p ?? raw), added];
    });
    return { appKey, name: peer.name, url, key: peer.key, source: 'admin' };
  }

  /** Removes an admin-added peer of the application of key `appKey`. @throws SyncPeerError PEER_CONFIGURED (it comes from the configuration), PEER_NOT_FOUND, PEER_FILE_UNREADABLE, PEER_LIST_BUSY */
  async remove(apps: readonly LocalApp[], appKey: string, name: string): Promise<void> {
    if (resolveConfigured(this.configured, apps, () => undefined).some((p) => p.appKey === appKey && p.name === name)) throw new SyncPeerError('PEER_CONFIGURED', 'This peer is set by the station configuration (BIOSTATION_SYNC_PEERS); change it there');
    await this.change(apps, async (stored) => {
      const keyed = this.keyed(stored, apps);
      const rest = keyed.filter(({ peer }) => !(peer && peer.appKey === appKey && peer.name === name));
      if (rest.length === keyed.length) throw new SyncPeerError('PEER_NOT_FOUND', 'No such peer for this application');
      return rest.map(({ peer, raw }) => peer ?? raw);
    });
  }

  /** The stored peers bound to their application (secrets possibly sealed); a bad list is logged and read as empty. */
  private async stored(apps: readonly LocalApp[]): Promise<StoredPeer[]> {
    const stored = await this.read(apps);
    if (stored.error) this.warn({ err: stored.error }, 'the stored sync peers are unreadable: the peers added from the Admin screen are left out');
    return this.keyed(stored.entries, apps).flatMap(({ peer }) => (peer ? [peer] : []));
  }

  /**
   * The entries as found, each with its peer bound by key. No peer (warned) for: an entry without
   * name, url, key and secret; one naming its application by a name that no or several applications
   * have; when `sealedOnly` (default: with a sealer), one whose secret is in clear; one whose URL an
   * admin could not have entered.
   */
  private keyed(entries: StoredEntry[], apps: readonly LocalApp[], sealedOnly = !!this.options.sealer): Array<{ raw: StoredEntry; peer?: StoredPeer }> {
    return entries.map((raw) => {
      const { name, url, key, secret, sealedSecret } = raw;
      if (typeof name !== 'string' || typeof url !== 'string' || typeof key !== 'string' || (typeof secret !== 'string' && typeof sealedSecret !== 'string')) {
        this.warn({ peer: name }, 'sync peers: an entry without name, url, key and secret is ignored');
        return { raw };
      }
      if (typeof sealedSecret !== 'string' && sealedOnly) {
        this.warn({ peer: name }, 'sync peers: an entry holding its secret in clear was not written by this station and is ignored; add the peer again from the Admin screen');
        return { raw };
      }
      try {
        if (checkAdminPeerUrl(url) !== url) throw new SyncPeerError('INVALID_PEER_URL', 'not in the form the station stores');
      } catch (e) {
        this.warn({ peer: name, err: (e as Error).message }, 'sync peers: an entry whose URL the Admin screen would refuse is ignored');
        return { raw };
      }
      const held = typeof sealedSecret === 'string' ? { sealedSecret } : { secret: secret as string };
      if (typeof raw.appKey === 'string') return { raw, peer: { appKey: raw.appKey, name, url, key, ...held } };
      const appKey = typeof raw.app === 'string' ? appKeyOf(raw.app, apps) : undefined;
      if (typeof appKey !== 'string') {
        this.warn({ peer: name, app: raw.app }, `sync peers: an old entry naming its application by name is ignored (${appKey === AMBIGUOUS ? 'several applications have this name' : 'no application has this name'}); add the peer again from the Admin screen`);
        return { raw };
      }
      return { raw, peer: { appKey, name, url, key, ...held } };
    });
  }

  /** The stored entries and their version, or why they cannot be read (nothing stored is an empty list). Imports an old sync-peers.json first. */
  private async read(apps: readonly LocalApp[]): Promise<{ entries: StoredEntry[]; version: number; error?: string }> {
    await (this.legacy ??= this.importLegacy(apps).catch((e: unknown) => this.warn({ file: this.options.legacyFile, err: (e as Error).message }, 'sync-peers.json of an older version could not be imported')));
    const { body, version } = await this.list.read();
    if (body === undefined) return { entries: [], version };
    const parsed = parseList(body);
    return 'error' in parsed ? { entries: [], version, error: parsed.error } : { entries: parsed.entries, version };
  }

  /**
   * Adds the peers of an old `<dataDir>/sync-peers.json` (each node of a scaled-out station had its
   * own) to the stored list: each bound to its application by key (an entry naming it by a name no or
   * several applications have stays out), sealed, skipped when its application already has a stored
   * peer of that name, up to MAX_STORED_PEERS. The file is then removed, or rewritten with what was
   * not imported (warned). A corrupt file, or a stored list that cannot be read, leaves it as it is.
   */
  private async importLegacy(apps: readonly LocalApp[]): Promise<void> {
    const file = this.options.legacyFile;
    if (!file || !existsSync(file)) return;
    let parsed: ReturnType<typeof parseList>;
    try {
      parsed = parseList(readFileSync(file, 'utf8'));
    } catch (e) {
      parsed = { error: (e as Error).message };
    }
    if ('error' in parsed) {
      this.warn({ file, err: parsed.error }, 'sync-peers.json of an older version is unreadable and was not imported: the peers in it are left out (fix or remove it)');
      return;
    }
    // The old file's secrets are in clear (sealed below, as they are imported).
    const bound = this.keyed(parsed.entries, apps, false);
    for (let i = 0; i < WRITE_TRIES; i++) {
      const { body, version } = await this.list.read();
      const current = body === undefined ? { entries: [] } : parseList(body);
      if ('error' in current) {
        this.warn({ file, err: current.error }, 'sync-peers.json of an older version was not imported: the stored sync peers are unreadable');
        return;
      }
      const taken = this.keyed(current.entries, apps).flatMap(({ peer }) => (peer ? [`${peer.appKey}\0${peer.name}`] : []));
      const imported: StoredEntry[] = [];
      const left: StoredEntry[] = [];
      let duplicates = 0;
      for (const { raw, peer } of bound) {
        if (!peer) left.push(raw);
        else if (taken.includes(`${peer.appKey}\0${peer.name}`)) duplicates++;
        else if (current.entries.length + imported.length >= MAX_STORED_PEERS) left.push(raw);
        else {
          imported.push(await this.sealed(peer));
          taken.push(`${peer.appKey}\0${peer.name}`);
        }
      }
      if (!(await this.list.write(JSON.stringify({ peers: [...current.entries, ...imported] }), version))) continue;
      if (left.length === 0) rmSync(file, { force: true });
      else writeFileSync(file, `${JSON.stringify({ peers: left }, null, 2)}\n`, { mode: 0o600 });
      (this.options.info ?? this.log)({ file, imported: imported.length, alreadyStored: duplicates, left: left.length }, left.length === 0 ? 'sync-peers.json imported into the station registry and removed' : 'sync-peers.json partly imported into the station registry: the entries left in it name no single application or found no room (at most 32 peers)');
      return;
    }
  }

  /**
   * Read, change, write: `next` gets the stored entries and gives the new ones (or throws); the write
   * is tried again on the entries another writer left meanwhile.
   * @throws SyncPeerError PEER_FILE_UNREADABLE rather than overwrite a list that could not be read, PEER_LIST_BUSY after WRITE_TRIES conflicts; whatever `next` throws
   */
  private async change(apps: readonly LocalApp[], next: (stored: StoredEntry[]) => Promise<StoredEntry[]>): Promise<void> {
    for (let i = 0; i < WRITE_TRIES; i++) {
      const { entries, version, error } = await this.read(apps);
      if (error) throw new SyncPeerError('PEER_FILE_UNREADABLE', `The station's stored sync peers cannot be read (${error}); nothing was changed`);
      // With a sealer, an entry in clear is not the station's (keyed ignores it): it is not carried over, so never sealed into use.
      const kept = (await next(entries)).filter((e) => !this.options.sealer || typeof e.secret !== 'string' || e.sealedSecret !== undefined);
      if (await this.list.write(JSON.stringify({ peers: kept }), version)) return;
    }
    throw new SyncPeerError('PEER_LIST_BUSY', 'The sync peers were changed elsewhere at the same time; try again');
  }

  /** `peer` as stored: its secret sealed when there is a sealer. @throws Error when it cannot be sealed (fail closed: never stored in clear) */
  private async sealed(peer: StoredPeer): Promise<StoredEntry> {
    const { sealer } = this.options;
    if (!sealer || peer.secret === undefined) return peer;
    const { secret, ...rest } = peer;
    return { ...rest, sealedSecret: await sealer.seal(peer.appKey, sealContext(peer), secret) };
  }
}

/** The entries of a stored list (or of an old sync-peers.json), or why it is not one. */
function parseList(text: string): { entries: StoredEntry[] } | { error: string } {
  try {
    const parsed = JSON.parse(text) as { peers?: unknown } | null;
    if (!parsed || !Array.isArray(parsed.peers) || !parsed.peers.every((p) => p && typeof p === 'object')) return { error: 'it holds no peer list' };
    return { entries: parsed.peers as StoredEntry[] };
  } catch (e) {
    return { error: (e as Error).message };
  }
}
