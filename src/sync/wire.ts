import { Value } from '@sinclair/typebox/value';
import { encodeBase64, isStandardBase64 } from '../runtime/base64.js';
import { ExtId, FingerPosition, MAX_FACE_TEMPLATES, MAX_TEMPLATE_BASE64_CHARS } from '../services/person-rules.js';
import { MAX_FINGER_TEMPLATES } from '../services/finger.js';
import type { IncomingChange, PersonChange } from '../store/types.js';
import { parseHlc } from './hlc.js';

/**
 * The change feed on the wire: our extension of the dumps. `GET .../face/dump?since=<seq>&limit=<n>`
 * (and `.../finger/dump`) answers the spec's dump shape with, per person, `Version` (hybrid logical
 * clock, src/sync/hlc.ts) and `Seq` (the peer's change sequence number), plus `tombstones` (persons
 * deleted, with their delete's version and station) and `next_since` (where the next page starts).
 * Without `since` a dump is the spec's (page/limit), persons with the additive `Version`.
 * `POST /api/v1/sync/changes` takes the same page as body (push).
 *
 * Everything a peer sends is validated here, before anything is written: ext_ids follow the API's
 * own rule (ExtId in src/services/person-rules.ts), template counts the API's limits, templates are bounded base64, times
 * are ISO 8601 UTC between 2000 and one day ahead of this station's clock, versions well formed and
 * within the same window, no ext_id twice in a page. One bad record refuses the whole page.
 */

export type Modality = 'face' | 'finger';

/** Most face templates per person: the enroll body's image limit (one template per image). */
export { MAX_FACE_TEMPLATES };
export const maxTemplates = (m: Modality) => (m === 'face' ? MAX_FACE_TEMPLATES : MAX_FINGER_TEMPLATES);
/** How far ahead of this station's clock a peer's time may be (clocks drift on offline stations). */
export const MAX_CLOCK_AHEAD_MS = 24 * 3600 * 1000;
const EARLIEST_MS = Date.parse('2000-01-01T00:00:00.000Z');
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

export interface FeedPage {
  total_entries: number;
  next_since: number;
  faces?: unknown[];
  fingers?: unknown[];
  tombstones: unknown[];
}

/** A page of the local change feed in the wire shape of `modality`'s dump. */
export function encodeFeedPage(modality: Modality, changes: PersonChange[], total: number, since: number): FeedPage {
  const persons: unknown[] = [];
  const tombstones: unknown[] = [];
  for (const c of changes) {
    if (c.kind === 'delete') {
      tombstones.push(modality === 'face'
        ? { ExternalID: c.extId, DeletedAt: c.deletedAt, Version: c.version, StationID: c.stationId, Seq: c.seq }
        : { externalId: c.extId, deletedAt: c.deletedAt, version: c.version, stationId: c.stationId, seq: c.seq });
    } else if (modality === 'face') {
      persons.push({ ExternalID: c.extId, Templates: c.templates.map((t) => ({ Data: encodeBase64(t.data) })), CreatedAt: c.createdAt, UpdatedAt: c.updatedAt, Version: c.version, Seq: c.seq });
    } else {
      persons.push({ externalId: c.extId, templates: c.templates.map((t) => ({ data: encodeBase64(t.data), position: t.position ?? null })), createdAt: c.createdAt, updatedAt: c.updatedAt, version: c.version, seq: c.seq });
    }
  }
  const next = changes.length ? changes[changes.length - 1].seq : since;
  return { total_entries: total, next_since: next, [modality === 'face' ? 'faces' : 'fingers']: persons, tombstones };
}

/** Why a page was refused (kept generic on purpose: it names the rule, never the peer's bytes). */
export class InvalidPage extends Error {}

export interface DecodedPage {
  changes: Array<IncomingChange & { seq: number }>;
  total: number;
  /** Where the next page starts; undefined for a legacy (spec-only) dump without the extension. */
  nextSince: number | undefined;
}

/**
 * Validates and decodes one page of a peer's dump or a pushed body. `legacyStation` names the
 * versions of records without `Version` (a spec-only peer): their UpdatedAt, counter 0.
 * @throws InvalidPage naming the broken rule
 */
export function decodePage(modality: Modality, body: unknown, options: { now?: number; maxItems: number; legacyStation?: string }): DecodedPage {
  const now = options.now ?? Date.now();
  const result = (body as { result?: unknown } | null)?.result ?? body;
  if (!isObject(result)) throw new InvalidPage('the page is not an object');
  const list = result[modality === 'face' ? 'faces' : 'fingers'] ?? [];
  const tombstones = result.tombstones ?? [];
  const total = result.total_entries;
  if (!Array.isArray(list) || !Array.isArray(tombstones)) throw new InvalidPage('persons or tombstones is not a list');
  if (list.length + tombstones.length > options.maxItems) throw new InvalidPage('more records than asked for');
  if (total !== undefined && !(Number.isSafeInteger(total) && (total as number) >= 0)) throw new InvalidPage('total_entries is not a count');
  const next = result.next_since;
  if (next !== undefined && !(Number.isSafeInteger(next) && (next as number) >= 0)) throw new InvalidPage('next_since is not a sequence number');
  const changes: DecodedPage['changes'] = [];
  const seen = new Set<string>();
  const f = modality === 'face'
    ? { id: 'ExternalID', templates: 'Templates', data: 'Data', created: 'CreatedAt', updated: 'UpdatedAt', version: 'Version', seq: 'Seq', deleted: 'DeletedAt', station: 'StationID' }
    : { id: 'externalId', templates: 'templates', data: 'data', created: 'createdAt', updated: 'updatedAt', version: 'version', seq: 'seq', deleted: 'deletedAt', station: 'stationId' };
  const extIdOf = (r: Record<string, unknown>) => {
    const id = r[f.id];
    if (typeof id !== 'string' || !Value.Check(ExtId, id)) throw new InvalidPage('an ext_id breaks the API rule (1-128 of A-Z a-z 0-9 . _ @ : + -)');
    if (seen.has(id)) throw new InvalidPage('an ext_id appears twice in one page');
    seen.add(id);
    return id;
  };
  const seqOf = (r: Record<string, unknown>) => {
    const s = r[f.seq];
    if (s === undefined && next === undefined) return 0;
    if (!Number.isSafeInteger(s) || (s as number) < 0) throw new InvalidPage('a sequence number is not a non-negative integer');
    return s as number;
  };
  const versionOf = (r: Record<string, unknown>, updatedAt: string) => {
    const v = r[f.version];
    if (v === undefined && options.legacyStation && next === undefined) return `${String(Date.parse(updatedAt)).padStart(13, '0')}.000000@${options.legacyStation}`;
    return checkedVersion(v, now);
  };
  for (const r of list) {
    if (!isObject(r)) throw new InvalidPage('a person is not an object');
    const extId = extIdOf(r);
    const createdAt = timeOf(r[f.created], now);
    const updatedAt = timeOf(r[f.updated] ?? r[f.created], now);
    const ts = r[f.templates];
    if (!Array.isArray(ts) || ts.length === 0 || ts.length > maxTemplates(modality)) throw new InvalidPage(`a person has no templates or more than ${maxTemplates(modality)}`);
    const templates = ts.map((t) => {
      if (!isObject(t)) throw new InvalidPage('a template is not an object');
      const data = t[f.data];
      if (typeof data !== 'string' || data.length === 0 || data.length > MAX_TEMPLATE_BASE64_CHARS || data.length % 4 !== 0 || !isStandardBase64(data)) throw new InvalidPage('a template is not bounded base64');
      let position: string | null = null;
      if (modality === 'finger' && t.position !== undefined && t.position !== null) {
        if (!Value.Check(FingerPosition, t.position)) throw new InvalidPage('a finger position breaks the API rule');
        position = t.position as string;
      }
      return { data: new Uint8Array(Buffer.from(data, 'base64')), position };
    });
    changes.push({ kind: 'upsert', extId, createdAt, updatedAt, templates, version: versionOf(r, updatedAt), seq: seqOf(r) });
  }
  for (const r of tombstones) {
    if (!isObject(r)) throw new InvalidPage('a tombstone is not an object');
    const extId = extIdOf(r);
    const deletedAt = timeOf(r[f.deleted], now);
    const version = versionOf(r, deletedAt);
    const stationId = r[f.station];
    if (typeof stationId !== 'string' || parseHlc(version)?.stationId !== stationId) throw new InvalidPage("a tombstone's station id does not match its version");
    changes.push({ kind: 'delete', extId, deletedAt, version, stationId, seq: seqOf(r) });
  }
  changes.sort((a, b) => a.seq - b.seq);
  if (next !== undefined && changes.some((c) => c.seq > (next as number))) throw new InvalidPage('a sequence number lies beyond next_since');
  return { changes, total: (total as number | undefined) ?? changes.length, nextSince: next as number | undefined };
}

/** A peer's version string, well formed and within the accepted time window. @throws InvalidPage */
export function checkedVersion(v: unknown, now: number): string {
  const h = typeof v === 'string' ? parseHlc(v) : undefined;
  if (!h || h.ms < EARLIEST_MS || h.ms > now + MAX_CLOCK_AHEAD_MS) throw new InvalidPage('a version is malformed or out of the accepted time window');
  return v as string;
}

/** A peer's time: ISO 8601 UTC between 2000 and one day ahead of `now`, normalised. @throws InvalidPage */
export function timeOf(v: unknown, now: number): string {
  if (typeof v !== 'string' || !ISO_UTC.test(v)) throw new InvalidPage('a time is not ISO 8601 UTC');
  const ms = Date.parse(v);
  if (!Number.isFinite(ms) || ms < EARLIEST_MS || ms > now + MAX_CLOCK_AHEAD_MS) throw new InvalidPage('a time is out of the accepted window');
  return new Date(ms).toISOString();
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
