import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIPv4 } from 'node:net';
import type { StationConfig } from '../runtime/config.js';
import { peerBase } from './peer-client.js';

/** A sync peer as the station uses it: local application name, peer name, peer base URL and the peer application's credential. */
export type SyncPeer = StationConfig['syncPeers'][number];

/** Where a peer comes from: the operator's configuration (read-only here) or the station-admin API. */
export type PeerSource = 'config' | 'admin';

/** A peer as shown to the station admin: never its secret. */
export interface PeerView {
  app: string;
  name: string;
  url: string;
  key: string;
  source: PeerSource;
}

export type PeerErrorCode = 'INVALID_PEER_NAME' | 'INVALID_PEER_URL' | 'INVALID_PEER_CREDENTIAL' | 'PEER_EXISTS' | 'PEER_NOT_FOUND' | 'PEER_CONFIGURED' | 'TOO_MANY_PEERS';

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
export const PEER_NAME = /^[A-Za-z0-9._-]{1,64}$/;
/** Most peers the admin API stores (the configuration's limit). */
export const MAX_STORED_PEERS = 32;
const MAX_CREDENTIAL_CHARS = 200;

/** 127.0.0.0/8, ::1 or `localhost`: the only hosts an admin-added peer may reach over plain http. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  if (h === 'localhost' || h === '[::1]') return true;
  return isIPv4(h) && h.startsWith('127.');
}

/**
 * Checks a peer URL given through the admin API: what peerBase accepts (scheme, host, port, path;
 * no user, password, query or fragment), and https unless the host is loopback (a secret and
 * biometric templates never cross a network in clear). Returns the base URL. @throws SyncPeerError INVALID_PEER_URL
 */
export function checkAdminPeerUrl(raw: string): string {
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
 * The station's sync peers: those of the configuration (BIOSTATION_SYNC_PEERS or the config file,
 * set by the operator, read-only here) and those the station admin added from the kiosk's Admin
 * screen (POST /api/v1/admin/applications/{key}/sync-peers), kept in `<dataDir>/sync-peers.json`
 * (mode 0600, written whole through a temporary file and a rename; it holds the peers' secrets in
 * clear, like the configuration they would otherwise be typed into). The file is read on every
 * call, so the `sync` CLI and a running station see the same list. A name is unique per local
 * application across both sources. With the PostgreSQL store the file is the node's own: peers
 * added on one API node are not seen by the others (configure shared peers in the configuration).
 */
export class SyncPeerRegistry {
  constructor(
    private readonly file: string,
    private readonly configured: readonly SyncPeer[],
  ) {}

  /** Every peer: the configuration's first, then the admin's in the order added. */
  all(): Array<SyncPeer & { source: PeerSource }> {
    return [...this.configured.map((p) => ({ ...p, source: 'config' as const })), ...this.stored().map((p) => ({ ...p, source: 'admin' as const }))];
  }

  /** The peers of one local application, secrets left out. */
  viewsOf(app: string): PeerView[] {
    return this.all().filter((p) => p.app === app).map((p) => ({ app: p.app, name: p.name, url: p.url, key: p.key, source: p.source }));
  }

  /**
   * Adds a peer of local application `peer.app` (the caller checked that the application exists).
   * @throws SyncPeerError INVALID_PEER_NAME, INVALID_PEER_URL, INVALID_PEER_CREDENTIAL, PEER_EXISTS, TOO_MANY_PEERS
   */
  add(peer: SyncPeer): PeerView {
    if (!PEER_NAME.test(peer.name)) throw new SyncPeerError('INVALID_PEER_NAME', 'A peer name is 1 to 64 letters, digits, ".", "_" or "-"');
    const url = checkAdminPeerUrl(peer.url);
    for (const [field, value] of [['key', peer.key], ['secret', peer.secret]] as const) {
      if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_CREDENTIAL_CHARS) throw new SyncPeerError('INVALID_PEER_CREDENTIAL', `The peer application's ${field} must be 1 to ${MAX_CREDENTIAL_CHARS} characters`);
    }
    if (this.all().some((p) => p.app === peer.app && p.name === peer.name)) throw new SyncPeerError('PEER_EXISTS', `This application already has a peer named ${peer.name}`);
    const stored = this.stored();
    if (stored.length >= MAX_STORED_PEERS) throw new SyncPeerError('TOO_MANY_PEERS', `At most ${MAX_STORED_PEERS} peers can be added here`);
    const added: SyncPeer = { name: peer.name, url, key: peer.key, secret: peer.secret, app: peer.app };
    this.save([...stored, added]);
    return { app: added.app, name: added.name, url: added.url, key: added.key, source: 'admin' };
  }

  /** Removes an admin-added peer. @throws SyncPeerError PEER_CONFIGURED (it comes from the configuration), PEER_NOT_FOUND */
  remove(app: string, name: string): void {
    if (this.configured.some((p) => p.app === app && p.name === name)) throw new SyncPeerError('PEER_CONFIGURED', 'This peer is set by the station configuration (BIOSTATION_SYNC_PEERS); change it there');
    const stored = this.stored();
    const rest = stored.filter((p) => !(p.app === app && p.name === name));
    if (rest.length === stored.length) throw new SyncPeerError('PEER_NOT_FOUND', 'No such peer for this application');
    this.save(rest);
  }

  private stored(): SyncPeer[] {
    if (!existsSync(this.file)) return [];
    const parsed = JSON.parse(readFileSync(this.file, 'utf8')) as { peers?: unknown };
    if (!Array.isArray(parsed.peers)) throw new Error(`${this.file} holds no peer list`);
    return parsed.peers as SyncPeer[];
  }

  private save(peers: SyncPeer[]): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify({ peers }, null, 2)}\n`, { mode: 0o600 });
    chmodSync(tmp, 0o600);
    renameSync(tmp, this.file);
  }
}
