import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import type { StationConfig } from '../runtime/config.js';
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

export type PeerErrorCode = 'INVALID_PEER_NAME' | 'INVALID_PEER_URL' | 'INVALID_PEER_CREDENTIAL' | 'PEER_EXISTS' | 'PEER_NOT_FOUND' | 'PEER_CONFIGURED' | 'TOO_MANY_PEERS' | 'PEER_FILE_UNREADABLE';

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

/**
 * The station's sync peers: those of the configuration (BIOSTATION_SYNC_PEERS or the config file,
 * set by the operator, read-only here) and those the station admin added from the kiosk's Admin
 * screen (POST /api/v1/admin/applications/{key}/sync-peers), kept in `<dataDir>/sync-peers.json`
 * as `{ peers: [{ appKey, name, url, key, sealedSecret }] }` (mode 0600, written whole through a
 * temporary file and a rename). With a `sealer` (the station and the CLI: peer-secrets.ts
 * keyringSealer) each secret is sealed under its application's data key, bound to the entry's name,
 * URL and peer key; without one (tests), and in files written before sealing, `secret` is in clear,
 * and such entries are sealed on the next change. A sealed secret that does not open (the entry was
 * edited, or the application's key is gone) leaves that peer out, with a warning. The file is read
 * on every call, so the `sync` CLI and a running station see the same list.
 *
 * Every peer belongs to one local application by its KEY (`appKey`): application names are not
 * unique, so a name would hand one application's peer credential to every application of that name.
 * Configured peers name their application by key or by name (resolveConfigured: a name two
 * applications share is ignored with a warning). An entry of an older file holding `app` (a name)
 * is read as the only application of that name, and rewritten with its key on the next change; if
 * several or no applications have that name, it is ignored with a warning (and kept in the file).
 * A corrupt file is logged and read as empty; adding or removing then fails with
 * PEER_FILE_UNREADABLE instead of overwriting it. A name is unique per local application across
 * both sources. With the PostgreSQL store the file is the node's own: peers added on one API node
 * are not seen by the others (configure shared peers in the configuration).
 */
export class SyncPeerRegistry {
  constructor(
    private readonly file: string,
    private readonly configured: readonly SyncPeer[],
    private readonly log: WarnLog = stderrWarn,
    private readonly sealer?: PeerSecretSealer,
  ) {}

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
   * configuration's first, then the admin's in the order added. Never throws for a bad file (logged,
   * read as empty) nor for a secret that does not open (that peer left out, logged).
   */
  async all(apps: readonly LocalApp[]): Promise<Array<KeyedPeer & { source: PeerSource }>> {
    const opened = await Promise.all(this.stored(apps).map(async (p): Promise<KeyedPeer[]> => {
      if (p.secret !== undefined) return [{ appKey: p.appKey, name: p.name, url: p.url, key: p.key, secret: p.secret }];
      try {
        if (!this.sealer) throw new Error('this registry has no key to open sealed secrets');
        return [{ appKey: p.appKey, name: p.name, url: p.url, key: p.key, secret: await this.sealer.open(p.appKey, sealContext(p), p.sealedSecret) }];
      } catch (e) {
        this.warn({ file: this.file, peer: p.name, err: (e as Error).message }, "sync-peers.json: a peer's secret does not open with this station's key (the entry was changed, or its application's key is gone); the peer is left out: add it again from the Admin screen");
        return [];
      }
    }));
    return [
      ...resolveConfigured(this.configured, apps, this.warn).map((p) => ({ ...p, source: 'config' as const })),
      ...opened.flat().map((p) => ({ ...p, source: 'admin' as const })),
    ];
  }

  /** The peers of the local application of key `appKey`, secrets left out (and not opened). */
  viewsOf(apps: readonly LocalApp[], appKey: string): PeerView[] {
    const view = (p: Omit<KeyedPeer, 'secret'>, source: PeerSource): PeerView => ({ appKey: p.appKey, name: p.name, url: p.url, key: p.key, source });
    return [
      ...resolveConfigured(this.configured, apps, this.warn).map((p) => view(p, 'config')),
      ...this.stored(apps).map((p) => view(p, 'admin')),
    ].filter((p) => p.appKey === appKey);
  }

  /** The admin-added peers as stored (secrets possibly sealed); a bad file is logged and read as empty. */
  private stored(apps: readonly LocalApp[]): StoredPeer[] {
    const stored = this.read();
    if (stored.error) this.warn({ file: this.file, err: stored.error }, 'sync-peers.json is unreadable: the peers added from the Admin screen are left out');
    return this.keyed(stored.entries, apps).flatMap(({ peer }) => (peer ? [peer] : []));
  }

  /**
   * Adds a peer of the local application of key `appKey` (the caller checked that it exists in `apps`).
   * @throws SyncPeerError INVALID_PEER_NAME, INVALID_PEER_URL, INVALID_PEER_CREDENTIAL, PEER_EXISTS, TOO_MANY_PEERS, PEER_FILE_UNREADABLE
   */
  async add(apps: readonly LocalApp[], appKey: string, peer: Omit<KeyedPeer, 'appKey'>): Promise<PeerView> {
    if (!PEER_NAME.test(peer.name)) throw new SyncPeerError('INVALID_PEER_NAME', 'A peer name is 1 to 64 letters, digits, ".", "_" or "-"');
    const url = checkAdminPeerUrl(peer.url);
    for (const [field, value] of [['key', peer.key], ['secret', peer.secret]] as const) {
      if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_CREDENTIAL_CHARS) throw new SyncPeerError('INVALID_PEER_CREDENTIAL', `The peer application's ${field} must be 1 to ${MAX_CREDENTIAL_CHARS} characters`);
    }
    const stored = this.writable();
    if (this.viewsOf(apps, appKey).some((p) => p.name === peer.name)) throw new SyncPeerError('PEER_EXISTS', `This application already has a peer named ${peer.name}`);
    if (stored.length >= MAX_STORED_PEERS) throw new SyncPeerError('TOO_MANY_PEERS', `At most ${MAX_STORED_PEERS} peers can be added here`);
    const added: StoredPeer = { appKey, name: peer.name, url, key: peer.key, secret: peer.secret };
    await this.save([...this.keyed(stored, apps).map(({ peer: p, raw }) => p ?? raw), added]);
    return { appKey, name: added.name, url: added.url, key: added.key, source: 'admin' };
  }

  /** Removes an admin-added peer of the application of key `appKey`. @throws SyncPeerError PEER_CONFIGURED (it comes from the configuration), PEER_NOT_FOUND, PEER_FILE_UNREADABLE */
  async remove(apps: readonly LocalApp[], appKey: string, name: string): Promise<void> {
    if (resolveConfigured(this.configured, apps, () => undefined).some((p) => p.appKey === appKey && p.name === name)) throw new SyncPeerError('PEER_CONFIGURED', 'This peer is set by the station configuration (BIOSTATION_SYNC_PEERS); change it there');
    const keyed = this.keyed(this.writable(), apps);
    const rest = keyed.filter(({ peer }) => !(peer && peer.appKey === appKey && peer.name === name));
    if (rest.length === keyed.length) throw new SyncPeerError('PEER_NOT_FOUND', 'No such peer for this application');
    await this.save(rest.map(({ peer, raw }) => peer ?? raw));
  }

  /** The stored entries, each with its peer bound by key (undefined: an old entry whose application name is ambiguous or unknown, warned). */
  private keyed(entries: StoredEntry[], apps: readonly LocalApp[]): Array<{ raw: StoredEntry; peer?: StoredPeer }> {
    return entries.map((raw) => {
      const { name, url, key, secret, sealedSecret } = raw;
      if (typeof name !== 'string' || typeof url !== 'string' || typeof key !== 'string' || (typeof secret !== 'string' && typeof sealedSecret !== 'string')) {
        this.warn({ file: this.file, peer: name }, 'sync-peers.json: an entry without name, url, key and secret is ignored');
        return { raw };
      }
      const held = typeof sealedSecret === 'string' ? { sealedSecret } : { secret: secret as string };
      if (typeof raw.appKey === 'string') return { raw, peer: { appKey: raw.appKey, name, url, key, ...held } };
      const appKey = typeof raw.app === 'string' ? appKeyOf(raw.app, apps) : undefined;
      if (typeof appKey !== 'string') {
        this.warn({ file: this.file, peer: name, app: raw.app }, `sync-peers.json: an old entry naming its application by name is ignored (${appKey === AMBIGUOUS ? 'several applications have this name' : 'no application has this name'}); add the peer again from the Admin screen`);
        return { raw };
      }
      return { raw, peer: { appKey, name, url, key, ...held } };
    });
  }

  /** The file's entries, or why it cannot be read (a missing file is an empty list). */
  private read(): { entries: StoredEntry[]; error?: string } {
    if (!existsSync(this.file)) return { entries: [] };
    try {
      const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { peers?: unknown } | null;
      if (!parsed || !Array.isArray(parsed.peers) || !parsed.peers.every((p) => p && typeof p === 'object')) return { entries: [], error: 'it holds no peer list' };
      return { entries: parsed.peers as StoredEntry[] };
    } catch (e) {
      return { entries: [], error: (e as Error).message };
    }
  }

  /** The entries before a change. @throws SyncPeerError PEER_FILE_UNREADABLE rather than overwrite a file that could not be read */
  private writable(): StoredEntry[] {
    const { entries, error } = this.read();
    if (error) throw new SyncPeerError('PEER_FILE_UNREADABLE', `The station's sync-peers.json cannot be read (${error}); fix or remove it before changing peers here`);
    return entries;
  }

  /**
   * Writes the entries, sealing every secret still in clear when there is a sealer (an entry whose
   * application's key cannot be had keeps its secret as it was). @throws Error when the file cannot be written
   */
  private async save(entries: StoredEntry[]): Promise<void> {
    const peers = await Promise.all(entries.map(async (e): Promise<StoredEntry> => {
      if (!this.sealer || typeof e.secret !== 'string' || typeof e.appKey !== 'string' || typeof e.name !== 'string' || typeof e.url !== 'string' || typeof e.key !== 'string') return e;
      const { secret, ...rest } = e;
      try {
        return { ...rest, sealedSecret: await this.sealer.seal(e.appKey, sealContext({ name: e.name, url: e.url, key: e.key }), secret) };
      } catch (err) {
        this.warn({ file: this.file, peer: e.name, err: (err as Error).message }, "sync-peers.json: a peer's secret could not be sealed and stays in clear");
        return e;
      }
    }));
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ peers }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
