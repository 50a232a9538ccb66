import { Type, type TSchema } from '@sinclair/typebox';
import { MAX_LIVENESS_FRAMES } from '../liveness/passive/frames.js';
import { BiostationError, ERROR_CATALOGUE } from '../runtime/errors.js';
import { ExtId, FingerPosition, MAX_FACE_TEMPLATES, MAX_TEMPLATE_BASE64_CHARS } from '../services/person-rules.js';

/**
 * Request and response schemas of every route (TypeBox = JSON Schema). They validate requests
 * (no type coercion: a wrong type is a 400), shape responses and generate the OpenAPI document.
 */

/** Largest base64 image accepted in a JSON body: 20 MB of image. */
export const MAX_IMAGE_BASE64_CHARS = 28_000_000;

/**
 * A base64 image field. Its length limits (1..MAX_IMAGE_BASE64_CHARS characters) are checked by
 * the route (imageField in image-limits.ts, same INVALID_REQUEST answer), not by the schema:
 * Ajv's minLength/maxLength count code points with a JavaScript loop over every character,
 * ~2 ms per MB of base64 on the main thread (issue #18: /health under large PNG bodies).
 */
const Base64Image = (description?: string) =>
  Type.String({ description: `${description ? `${description}; ` : ''}1 to ${MAX_IMAGE_BASE64_CHARS.toLocaleString('en')} characters (20 MB of image)` });
export { MAX_TEMPLATE_BASE64_CHARS };

export const ExtIdParams = Type.Object({ ext_id: ExtId });

/** Paging of the dump routes: `page` 1-based (default 1), `limit` 1..1000 (default 100). */
export const DumpQuery = Type.Object({
  page: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: '1-based page (default 1)' })),
  limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,3}$', description: 'records per page, 1..1000 (default 100)' })),
});

/** The page and limit of a dump query. @throws INVALID_REQUEST for a limit over 1000 */
export function pagingOf(query: unknown): { page: number; limit: number } {
  const q = query as { page?: string; limit?: string };
  const page = Number(q.page ?? 1);
  const limit = Number(q.limit ?? 100);
  if (limit > 1000) throw new BiostationError('INVALID_REQUEST', 'limit must be at most 1000');
  return { page, limit };
}

export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 UTC with milliseconds' });

export const Result = Type.Object(
  {
    code: Type.Integer(),
    message: Type.String(),
    detail: Type.Optional(Type.String()),
  },
  { description: 'Outcome. Success codes are even (1000..1010); failures use the odd codes of the error catalogue.' },
);

export const ResultBody = Type.Object({ result: Result });

export const CountBody = Type.Object({ count: Type.Integer({ minimum: 0 }) });

/** Similarity evidence added to every decision (verify, identify, match, compare). */
export const DecisionFields = {
  score: Type.Number({ description: 'Similarity of probe and reference (engine units; higher is more alike)' }),
  threshold: Type.Number({ description: 'Decision threshold in force for this application' }),
};

export const ImageItem = Type.Object({
  imageType: Type.Optional(Type.String({ maxLength: 32, description: 'Only "frontal" is accepted (default)' })),
  imageData: Base64Image('Base64 JPEG, PNG or WebP'),
});

const LIVENESS_FRAMES_TEXT = 'Extension (docs/enrollment-extensions.md, "Liveness frames"): extra frames of the SAME capture as the main image, '
  + 'taken within ~1-2 s of it, used only by the passive liveness check (mean log-odds over the image and its frames); never stored, never matched. '
  + 'Only with doLivenessCheck true (else 400 INVALID_REQUEST); each frame must show one face of the same person at nearly the same place and scale '
  + '(else 400 LIVENESS_FRAMES_INCONSISTENT, 1051). Same size and format limits as Images.';
const LivenessFrames = (description: string) => Type.Array(ImageItem, { minItems: 1, maxItems: MAX_LIVENESS_FRAMES, description });

export const FaceBody = Type.Object({
  doLivenessCheck: Type.Optional(Type.Boolean()),
  ReturnTemplate: Type.Optional(Type.Boolean()),
  Images: Type.Array(ImageItem, { minItems: 1, maxItems: MAX_FACE_TEMPLATES }),
  livenessFrames: Type.Optional(LivenessFrames(`${LIVENESS_FRAMES_TEXT} They go with Images[0] (the probe of verify and identify; the first image of enroll and update). 1 to ${MAX_LIVENESS_FRAMES} frames.`)),
});

export const FaceMatchBody = Type.Object({
  doLivenessCheck: Type.Optional(Type.Boolean()),
  Images: Type.Array(ImageItem, { minItems: 2, maxItems: 2 }),
  livenessFrames: Type.Optional(Type.Array(Type.Array(ImageItem, { maxItems: MAX_LIVENESS_FRAMES }), {
    minItems: 2, maxItems: 2,
    description: `${LIVENESS_FRAMES_TEXT} Two lists: the frames of Images[0], then of Images[1] (0 to ${MAX_LIVENESS_FRAMES} each, at least one frame in all).`,
  })),
});

export const FaceTemplate = Type.Object({ Data: Type.String({ description: 'Base64 face template' }) });

export const FaceRecord = Type.Object({
  ExternalID: Type.String(),
  Templates: Type.Array(FaceTemplate),
  CreatedAt: Timestamp,
  UpdatedAt: Timestamp,
});

/** Scan resolution of a fingerprint image, as the spec's enroll body has it (a string) or a number. */
const Dpi = Type.Optional(
  Type.Union([Type.String({ pattern: '^[0-9]{3,4}$' }), Type.Integer({ minimum: 100, maximum: 2000 })], {
    description: 'Scan resolution in dots per inch (default "500"); the engine resamples the image to its own resolution',
  }),
);

export const FingerImageBody = Type.Object({
  position: Type.Optional(FingerPosition),
  dpi: Dpi,
  imageData: Base64Image('Base64 PNG, JPEG, BMP or TIFF'),
});

/** Probe body of verify, identify and image match. `dpi` is our extension (the enroll body's field). */
export const FingerProbeBody = Type.Object({
  dpi: Dpi,
  imageData: Base64Image(),
});

export const FingerImagePairBody = Type.Array(FingerProbeBody, { minItems: 2, maxItems: 2 });

export const FingerTemplatePairBody = Type.Array(
  Type.Object({ b64IsoTemplate: Type.String({ minLength: 1, maxLength: MAX_TEMPLATE_BASE64_CHARS }) }),
  { minItems: 2, maxItems: 2 },
);

export const CompareResponse = Type.Object({ code: Type.Integer(), message: Type.String(), ...DecisionFields });

export const PlainError = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  code: Type.String(),
  message: Type.String(),
});

/** The error catalogue as an OpenAPI description table. */
export const ERROR_TABLE = Object.entries(ERROR_CATALOGUE)
  .map(([code, e]) => `| ${e.resultCode} | ${code} | ${e.status} | ${e.text} |`)
  .join('\n');

/** Error responses shared by the face and fingerprint routes. */
export function resultErrors(...statuses: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 401: ResultBody };
  for (const s of statuses) out[s] = ResultBody;
  return out;
}
