import { BiostationError } from '../runtime/errors.js';

/** A peer station and the credential of the application to pull from it. */
export interface Peer {
  /** Base URL, e.g. http://10.0.0.7:8080 (http or https). */
  url: string;
  key: string;
  secret: string;
}

/** One person as a peer's dump gives it: templates as bytes, timestamps as the peer wrote them. */
export interface PeerPerson {
  extId: string;
  templates: Array<{ data: Uint8Array; position: string | null }>;
  createdAt: string;
  updatedAt: string;
}

const PAGE_LIMIT = 200;
const TIMEOUT_MS = 30_000;

/**
 * Reads a peer station through its public API: a token from its credential endpoint, then every
 * page of `GET /api/v1/services/face/dump` (spec) and `GET /api/v1/services/finger/dump` (our
 * extension; a peer without it has no fingerprints to give).
 * Errors: PEER_UNREACHABLE (network, time-out, 5xx), PEER_UNAUTHORIZED (401), PEER_INVALID_RESPONSE.
 */
export class PeerClient {
  private token?: string;
  private readonly base: string;

  constructor(
    private readonly peer: Peer,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {
    let url: URL;
    try {
      url = new URL(peer.url);
    } catch {
      throw new BiostationError('INVALID_REQUEST', 'peerUrl is not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BiostationError('INVALID_REQUEST', 'peerUrl must be http or https');
    this.base = url.origin + url.pathname.replace(/\/+$/, '');
  }

  async faces(): Promise<PeerPerson[]> {
    const persons: PeerPerson[] = [];
    await this.pages('/api/v1/services/face/dump', 'faces', (item) => {
      const f = item as { ExternalID?: unknown; Templates?: Array<{ Data?: unknown }>; CreatedAt?: unknown; UpdatedAt?: unknown };
      if (typeof f.ExternalID !== 'string' || !Array.isArray(f.Templates) || typeof f.CreatedAt !== 'string') throw invalid('face record');
      persons.push({
        extId: f.ExternalID,
        templates: f.Templates.map((t) => ({ data: bytes(t.Data), position: null })),
        createdAt: f.CreatedAt,
        updatedAt: typeof f.UpdatedAt === 'string' ? f.UpdatedAt : f.CreatedAt,
      });
    });
    return persons;
  }

  /** The peer's fingerprint persons, or undefined when the peer has no fingerprint dump. */
  async fingers(): Promise<PeerPerson[] | undefined> {
    const persons: PeerPerson[] = [];
    const found = await this.pages('/api/v1/services/finger/dump', 'fingers', (item) => {
      const f = item as { externalId?: unknown; templates?: Array<{ data?: unknown; position?: unknown }>; createdAt?: unknown; updatedAt?: unknown };
      if (typeof f.externalId !== 'string' || !Array.isArray(f.templates) || typeof f.createdAt !== 'string') throw invalid('fingerprint record');
      persons.push({
        extId: f.externalId,
        templates: f.templates.map((t) => ({ data: bytes(t.data), position: typeof t.position === 'string' ? t.position : null })),
        createdAt: f.createdAt,
        updatedAt: typeof f.updatedAt === 'string' ? f.updatedAt : f.createdAt,
      });
    });
    return found ? persons : undefined;
  }

  /** Reads every page; false when the peer has no such route (404). */
  private async pages(route: string, field: string, each: (item: unknown) => void): Promise<boolean> {
    for (let page = 1, seen = 0; ; page++) {
      const res = await this.get(`${route}?page=${page}&limit=${PAGE_LIMIT}`);
      if (res.status === 404 && page === 1) return false;
      if (res.status !== 200) throw invalid(`${route} answered ${res.status}`);
      const body = (await res.json().catch(() => undefined)) as { result?: { total_entries?: unknown; [k: string]: unknown } } | undefined;
      const items = body?.result?.[field];
      const total = body?.result?.total_entries;
      if (!Array.isArray(items) || typeof total !== 'number') throw invalid(`${route} page ${page}`);
      items.forEach(each);
      seen += items.length;
      if (items.length === 0 || seen >= total) return true;
    }
  }

  private async get(pathAndQuery: string): Promise<Response> {
    const res = await this.call(pathAndQuery, { headers: { authorization: `Bearer ${await this.login()}` } });
    if (res.status === 401) throw new BiostationError('PEER_UNAUTHORIZED');
    return res;
  }

  private async login(): Promise<string> {
    if (this.token) return this.token;
    const res = await this.call('/api/v1/app-credentials/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ key: this.peer.key, secret: this.peer.secret }),
    });
    if (res.status === 401 || res.status === 400) throw new BiostationError('PEER_UNAUTHORIZED');
    const body = (await res.json().catch(() => undefined)) as { token?: unknown } | undefined;
    if (res.status !== 200 || typeof body?.token !== 'string') throw invalid(`token endpoint answered ${res.status}`);
    return (this.token = body.token);
  }

  private async call(pathAndQuery: string, init: RequestInit): Promise<Response> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.base}${pathAndQuery}`, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: 'error' });
    } catch (e) {
      throw new BiostationError('PEER_UNREACHABLE', `The peer station could not be reached: ${(e as Error).message}`);
    }
    if (res.status >= 500) throw new BiostationError('PEER_UNREACHABLE', `The peer station answered ${res.status}`);
    return res;
  }
}

const invalid = (what: string) => new BiostationError('PEER_INVALID_RESPONSE', `The peer station answered an unexpected ${what}`);

function bytes(b64: unknown): Uint8Array {
  if (typeof b64 !== 'string' || b64.length === 0) throw invalid('template');
  return new Uint8Array(Buffer.from(b64, 'base64'));
}
