/**
 * The document record of an enrolled person (issue #16, finding 7): the identity document fields
 * the clerk confirmed at enrollment (today a CNH read by POST /ocr/process-cnh, corrected by hand)
 * and the card-photo <-> live-face result the station gave for it, kept with the person. Stored
 * as JSON in the application's document repository (src/store/documents.ts: sealed with the
 * application's data key when the station encrypts, deleted with the person), never an image.
 *
 * The photo check is recorded as the kiosk reports it (the result of the station's own comparison,
 * `face.comparison` of the OCR response); the station does not recompute it here, since the card
 * image is not kept.
 */
import { BiostationError } from '../runtime/errors.js';
import type { Tenant } from './tenant.js';

/** The card photo against the live face: found on the card or not; when compared, the decision and its evidence. */
export interface PhotoCheck {
  found: boolean;
  matched?: boolean;
  /** Face similarity (the face engine's units) and the 1:1 threshold it was held against. */
  score?: number;
  threshold?: number;
}

/** What a client writes: the document kind, its confirmed fields (name -> text) and the photo check. */
export interface DocumentInput {
  kind: 'CNH';
  fields: Record<string, string>;
  photoCheck?: PhotoCheck;
}

/** What is stored and read back: the input plus when it was written (ISO 8601 UTC). */
export interface DocumentRecord extends DocumentInput {
  updatedAt: string;
}

/** Field names: lower-case words joined by `_` (the OCR response's names, e.g. `numero_cnh`). */
export const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;
export const MAX_FIELDS = 40;
export const MAX_FIELD_CHARS = 300;

async function exists(tenant: Tenant, extId: string): Promise<boolean> {
  const [face, finger] = await Promise.all([tenant.store.faces.templateCount(extId), tenant.store.fingers.templateCount(extId)]);
  return face !== undefined || finger !== undefined;
}

function repositoryOf(tenant: Tenant) {
  const documents = tenant.store.documents;
  if (!documents) throw new BiostationError('ENGINE_UNAVAILABLE', 'This store keeps no document records');
  return documents;
}

export class PersonDocumentService {
  constructor(private readonly now: () => Date = () => new Date()) {}

  /**
   * Creates or replaces the document record of an enrolled person.
   * @throws PERSON_NOT_FOUND (no face and no fingerprint person with that ext_id), INVALID_REQUEST
   *   (a field name or value out of bounds; the HTTP schema checks the same first)
   */
  async put(tenant: Tenant, extId: string, input: DocumentInput): Promise<DocumentRecord> {
    const names = Object.keys(input.fields);
    if (names.length === 0) throw new BiostationError('INVALID_REQUEST', 'fields must name at least one confirmed field');
    if (names.length > MAX_FIELDS) throw new BiostationError('INVALID_REQUEST', `at most ${MAX_FIELDS} fields`);
    for (const n of names) {
      if (!FIELD_NAME.test(n)) throw new BiostationError('INVALID_REQUEST', `field name ${JSON.stringify(n.slice(0, 50))} is not lower-case words joined by _`);
      const v = input.fields[n];
      if (typeof v !== 'string' || v.length > MAX_FIELD_CHARS) throw new BiostationError('INVALID_REQUEST', `field ${n} must be text of at most ${MAX_FIELD_CHARS} characters`);
    }
    const record: DocumentRecord = {
      kind: input.kind,
      fields: Object.fromEntries(names.map((n) => [n, input.fields[n]!])),
      ...(input.photoCheck ? { photoCheck: pickPhotoCheck(input.photoCheck) } : {}),
      updatedAt: this.now().toISOString(),
    };
    // The repository checks that the person exists in the transaction of the write (a delete in between cannot orphan it).
    if (!(await repositoryOf(tenant).put(extId, new TextEncoder().encode(JSON.stringify(record)), record.updatedAt))) throw new BiostationError('PERSON_NOT_FOUND');
    return record;
  }

  /** The person's document record, null when it has none. @throws PERSON_NOT_FOUND */
  async get(tenant: Tenant, extId: string): Promise<DocumentRecord | null> {
    if (!(await exists(tenant, extId))) throw new BiostationError('PERSON_NOT_FOUND');
    const row = await repositoryOf(tenant).get(extId);
    return row ? (JSON.parse(new TextDecoder().decode(row.data)) as DocumentRecord) : null;
  }

  /** Deletes the record (the person stays). @throws PERSON_NOT_FOUND when the person has none */
  async delete(tenant: Tenant, extId: string): Promise<void> {
    if (!(await repositoryOf(tenant).delete(extId))) throw new BiostationError('PERSON_NOT_FOUND', 'No document record for this ext_id');
  }
}

function pickPhotoCheck(p: PhotoCheck): PhotoCheck {
  return {
    found: p.found,
    ...(p.matched !== undefined ? { matched: p.matched } : {}),
    ...(p.score !== undefined ? { score: p.score } : {}),
    ...(p.threshold !== undefined ? { threshold: p.threshold } : {}),
  };
}
