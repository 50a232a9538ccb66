import { BiostationError } from '../runtime/errors.js';
import type { PersonChange } from '../store/types.js';
import type { DocumentChange } from '../store/documents.js';
import { decodeDocumentPage, encodeDocumentPage, type DecodedDocumentPage } from './document-wire.js';
import { InvalidPage, decodePage, encodeFeedPage, type DecodedPage, type Modality } from './wire.js';

/** A peer station and the credential of the application to sync with there. Comes from the station's configuration only. */
export interface Peer {
  /** Base URL, e.g. http://10.0.0.7:8080 (http or https, no user, password, query or fragment). */
  url: string;
  key: string;
  secret: string;
}

export interface PeerLimits {
  /** Largest response body read from a peer (after decompression), bytes. */
  maxResponseBytes: number;
  /** Time allowed for one request, body included, ms. */
  timeoutMs: number;
  /** Changes asked for (or sent) per page. */
  pageSize: number;
}

export const DEFAULT_PEER_LIMITS: PeerLimits = { maxResponseBytes: 32 * 1024 * 1024, timeoutMs: 30_000, pageSize: 100 };

/** What an operator sees: fixed sentences, so that an answer never tells what listens where. */
const UNREACHABLE = 'The peer station could not be reached, or did not answer as a Biostation';
const INVALID = 'The peer station answered something that is not a valid Biostation change feed';

/**
 * Checks a peer URL: http or https, a host, nothing else (no user/password, query or fragment).
 * Returns the base (origin plus path without trailing slash). @throws INVALID_REQUEST
 */
export function peerBase(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BiostationError('INVALID_REQUEST', 'The peer URL is not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BiostationError('INVALID_REQUEST', 'The peer URL must be http or https');
  if (url.username || url.password || url.search || url.hash || !url.hostname) {
    throw new BiostationError('INVALID_REQUEST', 'The peer URL must hold only scheme, host, port and path (no user, password, query or fragment)');
  }
  return url.origin + url.pathname.replace(/\/+$/, '');
}

/**
 * Talks to a peer station through its public API: a token from its credential endpoint, then pages
 * of the change feed (`GET .../dump?since=`) or pushes (`POST /api/v1/sync/changes`). Redirects are
 * refused; every response is bounded in size (read as a stream, decompressed bytes counted, the
 * transfer cut at the limit) and time; pages are validated (wire.ts) before anyone uses them.
 * Errors: PEER_UNREACHABLE (network, time-out, 5xx, redirect, not a Biostation), PEER_UNAUTHORIZED
 * (credential refused), PEER_INVALID_RESPONSE (oversized, not JSON, or a page that breaks a rule).
 */
export class PeerClient {
  private token?: string;
  readonly base: string;
  readonly origin: string;

  constructor(
    private readonly peer: Peer,
    private readonly limits: PeerLimits = DEFAULT_PEER_LIMITS,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    this.base = peerBase(peer.url);
    this.origin = new URL(this.base).origin;
  }

  /** One page of the peer's change feed of `modality` after sequence number `since`. */
  async changes(modality: Modality, since: number, legacyPage?: number): Promise<DecodedPage> {
    const query = legacyPage ? `page=${legacyPage}&limit=${this.limits.pageSize}` : `since=${since}&limit=${this.limits.pageSize}`;
    const res = await this.authorized(`/api/v1/services/${modality}/dump?${query}`, { method: 'GET' });
    if (res.status === 404 && modality === 'finger') return { changes: [], total: 0, nextSince: since }; // a peer without fingerprints
    if (res.status !== 200) throw new BiostationError('PEER_INVALID_RESPONSE', INVALID);
    const body = await this.json(res);
    try {
      return decodePage(modality, body, { maxItems: this.limits.pageSize, legacyStation: 'legacy-peer' });
    } catch (e) {
      if (e instanceof InvalidPage) throw new BiostationError('PEER_INVALID_RESPONSE', `${INVALID}: ${e.message}`);
      throw e;
    }
  }

  /**
   * One page of the peer's document feed after `since` (document-wire.ts). A peer that keeps no
   * documents' feed (an older station: 404) answers an empty page.
   */
  async documentChanges(since: number): Promise<DecodedDocumentPage> {
    const res = await this.authorized(`/api/v1/sync/documents?since=${since}&limit=${this.limits.pageSize}`, { method: 'GET' });
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return { changes: [], total: 0, nextSince: since };
    }
    if (res.status !== 200) throw new BiostationError('PEER_INVALID_RESPONSE', INVALID);
    const body = await this.json(res);
    try {
      return decodeDocumentPage(body, { maxItems: this.limits.pageSize });
    } catch (e) {
      if (e instanceof InvalidPage) throw new BiostationError('PEER_INVALID_RESPONSE', `${INVALID}: ${e.message}`);
      throw e;
    }
  }

  /**
   * Whether the peer keeps a documents' feed: an older station (no GET /api/v1/sync/documents) answers
   * 404. Asked past the feed's end, so the peer reads no record to answer.
   */
  async keepsDocuments(): Promise<boolean> {
    const res = await this.authorized(`/api/v1/sync/documents?since=${Number.MAX_SAFE_INTEGER}&limit=1`, { method: 'GET' });
    await res.body?.cancel().catch(() => undefined);
    return res.status !== 404;
  }

  /**
   * The head of the peer's document feed (a one-record page): `keeps` false for a peer without the
   * feed (404); `lastSeq` its newest sequence number, undefined from a station that does not send
   * `last_seq`. @throws PEER_INVALID_RESPONSE (not 200/404, not JSON, a last_seq that is not a sequence number)
   */
  async documentFeedHead(): Promise<{ keeps: boolean; lastSeq?: number }> {
    const res = await this.authorized(`/api/v1/sync/documents?since=${Number.MAX_SAFE_INTEGER}&limit=1`, { method: 'GET' });
    if (res.status === 404) {
      await res.body?.cancel().catch(() => undefined);
      return { keeps: false };
    }
    if (res.status !== 200) throw new BiostationError('PEER_INVALID_RESPONSE', INVALID);
    // Only last_seq is used from this answer (its records, if any, are read by documentChanges).
    const body = (await this.json(res)) as { result?: { last_seq?: unknown } } | null;
    const last = body?.result?.last_seq;
    if (last !== undefined && !(Number.isSafeInteger(last) && (last as number) >= 0)) throw new BiostationError('PEER_INVALID_RESPONSE', `${INVALID}: last_seq is not a sequence number`);
    return { keeps: true, lastSeq: last as number | undefined };
  }

  /** Sends one page of local changes (persons of a modality, or document records); returns the peer's outcome counts. */
  async push(modality: Modality | 'document', changes: PersonChange[] | DocumentChange[], since: number): Promise<Record<string, number>> {
    const page = modality === 'document' ? encodeDocumentPage(changes as DocumentChange[], changes.length, since) : encodeFeedPage(modality, changes as PersonChange[], changes.length, since);
    const res = await this.authorized('/api/v1/sync/changes', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ modality, ...page }),
    });
    if (res.status !== 200) throw new BiostationError(res.status === 400 ? 'PEER_INVALID_RESPONSE' : 'PEER_UNREACHABLE', res.status === 400 ? 'The peer station refused the pushed page' : UNREACHABLE);
    const body = (await this.json(res)) as { outcome?: Record<string, unknown> } | undefined;
    const outcome = body?.outcome;
    if (!outcome || typeof outcome !== 'object') throw new BiostationError('PEER_INVALID_RESPONSE', INVALID);
    const counts: Record<string, number> = {};
    for (const [k, v] of Object.entries(outcome)) if (Number.isSafeInteger(v)) counts[k] = v as number;
    return counts;
  }

  private async authorized(pathAndQuery: string, init: RequestInit): Promise<Response> {
    const res = await this.call(pathAndQuery, { ...init, headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${await this.login()}` } });
    if (res.status === 401 || res.status === 403) {
      await res.body?.cancel().catch(() => undefined);
      throw new BiostationError('PEER_UNAUTHORIZED');
    }
    return res;
  }

  private async login(): Promise<string> {
    if (this.token) return this.token;
    const res = await this.call('/api/v1/app-credentials/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: this.peer.key, secret: this.peer.secret }),
    });
    if (res.status === 401) {
      await res.body?.cancel().catch(() => undefined);
      throw new BiostationError('PEER_UNAUTHORIZED');
    }
    if (res.status !== 200) {
      await res.body?.cancel().catch(() => undefined);
      throw new BiostationError('PEER_UNREACHABLE', UNREACHABLE);
    }
    const body = (await this.json(res, 'unreachable')) as { token?: unknown } | undefined;
    if (typeof body?.token !== 'string' || body.token.length > 8192) throw new BiostationError('PEER_UNREACHABLE', UNREACHABLE);
    return (this.token = body.token);
  }

  private async call(pathAndQuery: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(this.limits.timeoutMs), redirect: 'manual' });
    } catch {
      throw new BiostationError('PEER_UNREACHABLE', UNREACHABLE);
    }
    if (res.status >= 500 || (res.status >= 300 && res.status < 400) || res.type === 'opaqueredirect') {
      await res.body?.cancel().catch(() => undefined);
      throw new BiostationError('PEER_UNREACHABLE', UNREACHABLE);
    }
    return res;
  }

  /** Reads a JSON body as a stream, cut at the size limit (decompressed bytes) and the time limit. */
  private async json(res: Response, onBad: 'invalid' | 'unreachable' = 'invalid'): Promise<unknown> {
    const bad = () => (onBad === 'invalid' ? new BiostationError('PEER_INVALID_RESPONSE', INVALID) : new BiostationError('PEER_UNREACHABLE', UNREACHABLE));
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > this.limits.maxResponseBytes || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new BiostationError('PEER_INVALID_RESPONSE', `${INVALID}: the answer is larger than ${this.limits.maxResponseBytes} bytes`);
    }
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > this.limits.maxResponseBytes) {
          await reader.cancel().catch(() => undefined);
          throw new BiostationError('PEER_INVALID_RESPONSE', `${INVALID}: the answer is larger than ${this.limits.maxResponseBytes} bytes`);
        }
        chunks.push(value);
      }
    } catch (e) {
      if (e instanceof BiostationError) throw e;
      throw new BiostationError('PEER_UNREACHABLE', UNREACHABLE); // time-out or dropped link mid-body
    }
    try {
      return JSON.parse(Buffer.concat(chunks, size).toString('utf8'));
    } catch {
      throw bad();
    }
  }
}
