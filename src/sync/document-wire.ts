import { Value } from '@sinclair/typebox/value';
import { ExtId } from '../services/person-rules.js';
import { FIELD_NAME, MAX_FIELDS, MAX_FIELD_CHARS, type DocumentRecord, type PhotoCheck } from '../services/person-documents.js';
import type { DocumentChange, IncomingDocumentChange } from '../store/documents.js';
import { parseHlc } from './hlc.js';
import { InvalidPage, checkedVersion, isObject, timeOf } from './wire.js';

/**
 * The document records' change feed on the wire (src/store/documents.ts), beside the persons'
 * (wire.ts): `GET /api/v1/sync/documents?since=<seq>&limit=<n>` answers
 *
 *   { result: { total_entries, next_since, last_seq,
 *               documents: [{ externalId, document: { kind, fields, photoCheck?, updatedAt }, version, seq }],
 *               tombstones: [{ externalId, deletedAt, version, stationId, seq }] } }
 *
 * (`last_seq`: the feed's newest sequence number when the answer was read; absent from older
 * stations) and `POST /api/v1/sync/changes` takes the same page with `modality: 'document'` (push). The
 * record travels as the JSON the API answers (in clear over the peers' link, as templates do) and
 * is sealed again by the receiving store with its own key. Everything a peer sends is checked
 * before anything is written, by the rules of `PUT .../document` (kind CNH, 1..40 fields named by
 * lower-case words, values of at most 300 characters, the photo check's types), the ext_id rule,
 * times, versions and sequence numbers as for persons; one bad record refuses the whole page. What
 * is stored is the record rebuilt from the checked fields (nothing else a peer adds).
 */

export interface DocumentFeedPage {
  total_entries: number;
  next_since: number;
  /** The feed's newest sequence number when the answer was read (GET answers; older stations leave it out). */
  last_seq?: number;
  documents: unknown[];
  tombstones: unknown[];
}

/** A page of the local document feed. A stored record that is not a document's JSON (never written so) is left out. */
export function encodeDocumentPage(changes: DocumentChange[], total: number, since: number): DocumentFeedPage {
  const documents: unknown[] = [];
  const tombstones: unknown[] = [];
  for (const c of changes) {
    if (c.kind === 'delete') tombstones.push({ externalId: c.extId, deletedAt: c.deletedAt, version: c.version, stationId: c.stationId, seq: c.seq });
    else {
      const document = parseStored(c.data);
      if (document) documents.push({ externalId: c.extId, document, version: c.version, seq: c.seq });
    }
  }
  return { total_entries: total, next_since: changes.length ? changes[changes.length - 1].seq : since, documents, tombstones };
}

/** A stored record's JSON, undefined when the bytes are not one. */
export function parseStored(data: Uint8Array): DocumentRecord | undefined {
  try {
    return JSON.parse(new TextDecoder().decode(data)) as DocumentRecord;
  } catch {
    return undefined;
  }
}

export interface DecodedDocumentPage {
  changes: Array<IncomingDocumentChange & { seq: number }>;
  total: number;
  nextSince: number;
  /** The peer's `last_seq`, when it sent one. */
  lastSeq?: number;
}

/** Validates and decodes one page of a peer's document feed or a pushed body. @throws InvalidPage naming the broken rule */
export function decodeDocumentPage(body: unknown, options: { now?: number; maxItems: number }): DecodedDocumentPage {
  const now = options.now ?? Date.now();
  const result = (body as { result?: unknown } | null)?.result ?? body;
  if (!isObject(result)) throw new InvalidPage('the page is not an object');
  const list = result.documents ?? [];
  const tombstones = result.tombstones ?? [];
  if (!Array.isArray(list) || !Array.isArray(tombstones)) throw new InvalidPage('documents or tombstones is not a list');
  if (list.length + tombstones.length > options.maxItems) throw new InvalidPage('more records than asked for');
  const total = result.total_entries ?? list.length + tombstones.length;
  if (!(Number.isSafeInteger(total) && (total as number) >= 0)) throw new InvalidPage('total_entries is not a count');
  const next = result.next_since;
  if (!(Number.isSafeInteger(next) && (next as number) >= 0)) throw new InvalidPage('next_since is not a sequence number');
  const last = result.last_seq;
  if (last !== undefined && !(Number.isSafeInteger(last) && (last as number) >= 0)) throw new InvalidPage('last_seq is not a sequence number');
  const seen = new Set<string>();
  const extIdOf = (r: Record<string, unknown>) => {
    const id = r.externalId;
    if (typeof id !== 'string' || !Value.Check(ExtId, id)) throw new InvalidPage('an ext_id breaks the API rule (1-128 of A-Z a-z 0-9 . _ @ : + -)');
    if (seen.has(id)) throw new InvalidPage('an ext_id appears twice in one page');
    seen.add(id);
    return id;
  };
  const seqOf = (r: Record<string, unknown>) => {
    if (!Number.isSafeInteger(r.seq) || (r.seq as number) < 0 || (r.seq as number) > (next as number)) throw new InvalidPage('a sequence number is not a non-negative integer up to next_since');
    return r.seq as number;
  };
  const changes: DecodedDocumentPage['changes'] = [];
  for (const r of list) {
    if (!isObject(r)) throw new InvalidPage('a document is not an object');
    const extId = extIdOf(r);
    const record = checkedRecord(r.document, now);
    changes.push({ kind: 'upsert', extId, updatedAt: record.updatedAt, data: new TextEncoder().encode(JSON.stringify(record)), version: checkedVersion(r.version, now), seq: seqOf(r) });
  }
  for (const r of tombstones) {
    if (!isObject(r)) throw new InvalidPage('a tombstone is not an object');
    const extId = extIdOf(r);
    const deletedAt = timeOf(r.deletedAt, now);
    const version = checkedVersion(r.version, now);
    if (typeof r.stationId !== 'string' || parseHlc(version)?.stationId !== r.stationId) throw new InvalidPage("a tombstone's station id does not match its version");
    changes.push({ kind: 'delete', extId, deletedAt, version, stationId: r.stationId, seq: seqOf(r) });
  }
  changes.sort((a, b) => a.seq - b.seq);
  return { changes, total: total as number, nextSince: next as number, ...(last !== undefined ? { lastSeq: last as number } : {}) };
}

/** A peer's document record checked by the API's rules and rebuilt from its known fields. @throws InvalidPage */
function checkedRecord(v: unknown, now: number): DocumentRecord {
  if (!isObject(v) || v.kind !== 'CNH') throw new InvalidPage('a document is not a CNH record');
  const fields = v.fields;
  if (!isObject(fields)) throw new InvalidPage("a document's fields are not an object");
  const names = Object.keys(fields);
  if (names.length === 0 || names.length > MAX_FIELDS) throw new InvalidPage(`a document has no fields or more than ${MAX_FIELDS}`);
  for (const n of names) {
    if (!FIELD_NAME.test(n)) throw new InvalidPage('a document field name is not lower-case words joined by _');
    const text = fields[n];
    if (typeof text !== 'string' || text.length > MAX_FIELD_CHARS) throw new InvalidPage(`a document field is not text of at most ${MAX_FIELD_CHARS} characters`);
  }
  const record: DocumentRecord = { kind: 'CNH', fields: Object.fromEntries(names.map((n) => [n, fields[n] as string])), updatedAt: timeOf(v.updatedAt, now) };
  if (v.photoCheck !== undefined) record.photoCheck = checkedPhotoCheck(v.photoCheck);
  // The stored JSON keeps the API's key order: kind, fields, photoCheck, updatedAt.
  return { kind: record.kind, fields: record.fields, ...(record.photoCheck ? { photoCheck: record.photoCheck } : {}), updatedAt: record.updatedAt };
}

function checkedPhotoCheck(v: unknown): PhotoCheck {
  if (!isObject(v) || typeof v.found !== 'boolean') throw new InvalidPage("a document's photo check is not { found: boolean, ... }");
  if (v.matched !== undefined && typeof v.matched !== 'boolean') throw new InvalidPage("a photo check's matched is not a boolean");
  for (const k of ['score', 'threshold'] as const) {
    if (v[k] !== undefined && !(typeof v[k] === 'number' && Number.isFinite(v[k]))) throw new InvalidPage(`a photo check's ${k} is not a number`);
  }
  return {
    found: v.found,
    ...(v.matched !== undefined ? { matched: v.matched as boolean } : {}),
    ...(v.score !== undefined ? { score: v.score as number } : {}),
    ...(v.threshold !== undefined ? { threshold: v.threshold as number } : {}),
  };
}
