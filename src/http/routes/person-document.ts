import { Type, type Static } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { FIELD_NAME, MAX_FIELDS, MAX_FIELD_CHARS, PersonDocumentService } from '../../services/person-documents.js';
import { tenantOf } from '../auth.js';
import type { Authenticate } from '../context.js';
import { ExtIdParams, PlainError } from '../schemas.js';

/**
 * A person's document record (API extension, issue #16; src/services/person-documents.ts):
 *   PUT    /api/v1/persons/{ext_id}/document  { kind: 'CNH', fields, photoCheck? } -> { document }
 *   GET    /api/v1/persons/{ext_id}/document  -> { document } (null when the person has none)
 *   DELETE /api/v1/persons/{ext_id}/document  -> { deleted: true }
 * The person is the ext_id of a face or fingerprint enrollment (404 PERSON_NOT_FOUND otherwise).
 * Encrypted at rest with the application's data key like templates, deleted with the person (the
 * last of its modalities, by the API or a sync tombstone); never an image.
 */
const BASE = '/api/v1/persons/:ext_id/document';
const tags = ['documents'];
const security = [{ bearerAuth: [] }];

const PhotoCheck = Type.Object({
  found: Type.Boolean({ description: 'A face (the card photo) was found on the document' }),
  matched: Type.Optional(Type.Boolean({ description: 'The card photo matched the live face (the station\'s 1:1 decision)' })),
  score: Type.Optional(Type.Number({ description: 'Face similarity of that comparison' })),
  threshold: Type.Optional(Type.Number({ description: '1:1 face threshold it was held against' })),
}, { additionalProperties: false, description: 'The card photo against the live face, as the OCR response\'s face.comparison gave it' });

const DocumentBody = Type.Object({
  kind: Type.Literal('CNH'),
  fields: Type.Record(Type.String({ pattern: FIELD_NAME.source }), Type.String({ maxLength: MAX_FIELD_CHARS }), {
    minProperties: 1, maxProperties: MAX_FIELDS,
    description: 'The fields the clerk confirmed, by the OCR response\'s names (nome_completo, cpf, numero_cnh, data_validade, ...)',
  }),
  photoCheck: Type.Optional(PhotoCheck),
}, { additionalProperties: false });

const DocumentRecord = Type.Object({
  kind: Type.Literal('CNH'),
  fields: Type.Record(Type.String(), Type.String()),
  photoCheck: Type.Optional(PhotoCheck),
  updatedAt: Type.String({ description: 'When the record was written (ISO 8601 UTC)' }),
});

type Params = Static<typeof ExtIdParams>;
/** Errors in the plain style of the extensions ({ statusCode, error, code, message }; src/http/errors.ts). */
const errors = { 400: PlainError, 401: PlainError, 404: PlainError };

export function personDocumentRoutes(authenticate: Authenticate): FastifyPluginAsync {
  const documents = new PersonDocumentService();
  return async (app) => {
    app.addHook('onRequest', authenticate);

    app.put(BASE, {
      schema: {
        tags, security, summary: 'Extension: store the confirmed document (CNH fields and photo check) with an enrolled person',
        description: 'Replaces any previous record. 404 PERSON_NOT_FOUND when no face or fingerprint person has this ext_id. Never an image.',
        params: ExtIdParams, body: DocumentBody, response: { 200: Type.Object({ document: DocumentRecord }), ...errors },
      },
    }, async (request) => ({ document: await documents.put(tenantOf(request), (request.params as Params).ext_id, request.body as Static<typeof DocumentBody>) }));

    app.get(BASE, {
      schema: {
        tags, security, summary: "Extension: the person's document record", params: ExtIdParams,
        response: { 200: Type.Object({ document: Type.Union([DocumentRecord, Type.Null()]) }), ...errors },
      },
    }, async (request) => ({ document: await documents.get(tenantOf(request), (request.params as Params).ext_id) }));

    app.delete(BASE, {
      schema: { tags, security, summary: "Extension: delete the person's document record (the person stays)", params: ExtIdParams, response: { 200: Type.Object({ deleted: Type.Literal(true) }), ...errors } },
    }, async (request) => {
      await documents.delete(tenantOf(request), (request.params as Params).ext_id);
      return { deleted: true as const };
    });
  };
}
