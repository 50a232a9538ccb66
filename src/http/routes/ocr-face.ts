import { Type } from '@sinclair/typebox';
import type { Tenant } from '../../services/tenant.js';
import type { StationServices } from '../context.js';

/**
 * The CNH's photo against the live face (API extension of POST /ocr/process-cnh, issue #16). With
 * the face engine on, the document image (JPEG/PNG; not PDF) is searched for a face (the card's
 * photo: the dominant face, lenient probe extraction) and the response gains
 *   face: { found, box?, comparison? }
 * `box` is the photo's face box in the document's pixels. `comparison` is present when the request
 * also carried a multipart file `selfie` (JPEG/PNG of the live face) or a text field `ext_id` (an
 * enrolled face person): `{ against: 'selfie' | 'ext_id', matched, score, threshold }` with the
 * application's 1:1 face threshold, or `{ against, error }` with the stable code that stopped it
 * (NO_FACE, PERSON_NOT_FOUND, ...). Without the face engine the field is absent.
 */
export const DocumentFace = Type.Optional(Type.Object({
  found: Type.Boolean({ description: 'A face (the card photo) was found on the document' }),
  box: Type.Optional(Type.Object({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() })),
  comparison: Type.Optional(Type.Object({
    against: Type.Union([Type.Literal('selfie'), Type.Literal('ext_id')]),
    matched: Type.Optional(Type.Boolean()),
    score: Type.Optional(Type.Number()),
    threshold: Type.Optional(Type.Number()),
    error: Type.Optional(Type.String({ description: 'Stable code of the failure (NO_FACE, PERSON_NOT_FOUND, INVALID_IMAGE, ...)' })),
  })),
}, { description: 'Extension: the card photo and, on request, its comparison with a selfie or an enrolled person' }));

type DocumentFaceT = {
  found: boolean;
  box?: { x: number; y: number; width: number; height: number };
  comparison?: { against: 'selfie' | 'ext_id'; matched?: boolean; score?: number; threshold?: number; error?: string };
};

const codeOf = (e: unknown): string => (e as { code?: unknown }).code && typeof (e as { code?: unknown }).code === 'string' ? (e as { code: string }).code : 'INTERNAL_ERROR';

/** The `face` field for a document (undefined when the face engine is off or not loaded, or the document is a PDF). */
export async function documentFace(
  services: StationServices,
  tenant: Tenant,
  document: Uint8Array,
  mime: string,
  probe: { selfie?: Uint8Array; extId?: string },
): Promise<{ face?: DocumentFaceT }> {
  if (mime === 'application/pdf') return {};
  const engine = await services.engines.face.get().catch(() => undefined);
  if (!engine) return {};
  let box: DocumentFaceT['box'];
  try {
    const found = await engine.extract(document, 'probe');
    box = { x: Math.round(found.box.x), y: Math.round(found.box.y), width: Math.round(found.box.width), height: Math.round(found.box.height) };
  } catch {
    return { face: { found: false } };
  }
  const against = probe.selfie ? 'selfie' : probe.extId ? 'ext_id' : undefined;
  if (!against) return { face: { found: true, box } };
  try {
    const d = probe.selfie
      ? await services.face.match(tenant, document, probe.selfie)
      : await services.face.verify(tenant, probe.extId!, document);
    return { face: { found: true, box, comparison: { against, matched: d.matched, score: d.score, threshold: d.threshold } } };
  } catch (e) {
    return { face: { found: true, box, comparison: { against, error: codeOf(e) } } };
  }
}
