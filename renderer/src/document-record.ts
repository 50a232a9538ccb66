/**
 * The document record the kiosk keeps with an enrollment (PUT /api/v1/persons/{ext_id}/document,
 * docs/enrollment-extensions.md): the CNH fields as the clerk confirmed them and the card-photo
 * result the station gave for the face being enrolled. Pure, so it is unit-tested without a browser.
 */

/** The record as the API takes it. */
export interface PersonDocument {
  kind: 'CNH';
  fields: Record<string, string>;
  photoCheck?: { found: boolean; matched?: boolean; score?: number; threshold?: number };
}

/** What the OCR response said of the card photo (`face`), as api.ts types it. */
interface CardFace {
  found: boolean;
  comparison?: { matched?: boolean; score?: number; threshold?: number; error?: string };
}

/** The station's limits on a field (src/services/person-documents.ts). */
const FIELD_NAME = /^[a-z][a-z0-9_]{0,39}$/;
const MAX_FIELD_CHARS = 300;

/**
 * The record for confirmed `values` (field name -> text; empty ones left out) and the card photo
 * `face`. The comparison counts only when it was made with the face being enrolled
 * (`comparedWith === enrolledFace`, base64 of the images); otherwise only `found` is kept. Returns
 * null when no field is filled (nothing to keep).
 */
export function documentRecordOf(values: Record<string, string>, face: CardFace | undefined, comparedWith: string | null, enrolledFace: string | null): PersonDocument | null {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const v = value.trim();
    if (v && FIELD_NAME.test(name)) fields[name] = v.slice(0, MAX_FIELD_CHARS);
  }
  if (Object.keys(fields).length === 0) return null;
  const record: PersonDocument = { kind: 'CNH', fields };
  if (face) {
    const c = face.comparison;
    const same = c && !c.error && comparedWith !== null && comparedWith === enrolledFace;
    record.photoCheck = same
      ? { found: face.found, ...(c.matched !== undefined ? { matched: c.matched } : {}), ...(c.score !== undefined ? { score: c.score } : {}), ...(c.threshold !== undefined ? { threshold: c.threshold } : {}) }
      : { found: face.found };
  }
  return record;
}

/**
 * Whether a CNH validity date ("dd/mm/yyyy", as the OCR gives it) is past on `today` (the card is
 * valid through its last day); false for text that is not such a date.
 */
export function isExpired(validity: string | undefined, today: Date = new Date()): boolean {
  const m = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec((validity ?? '').trim());
  if (!m) return false;
  const [d, mo, y] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const end = new Date(y, mo - 1, d);
  if (end.getFullYear() !== y || end.getMonth() !== mo - 1 || end.getDate() !== d) return false;
  const startOfToday = new Date(today.getFullYear(), today.getMonth(), today.getDate());
  return end < startOfToday;
}
