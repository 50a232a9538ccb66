import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsync } from 'fastify';
import { CNH_FIELD_NAMES, OcrError } from '../../ocr/engine.js';
import { sniffMime } from '../../ocr/input.js';
import { tenantOf } from '../auth.js';
import type { Authenticate, StationServices } from '../context.js';
import { DocumentFace, documentFace } from './ocr-face.js';

/** The spec's OCR upload limit. */
export const OCR_MAX_FILE_BYTES = 20 * 1024 * 1024;
/** Fields below this confidence are listed in `campos_com_baixa_confianca` (spec: 0.8). */
const LOW_CONFIDENCE = 0.8;

const OcrErrorBody = Type.Object({
  statusCode: Type.Integer(),
  message: Type.String(),
  error: Type.String(),
  code: Type.Optional(Type.String({
    description: 'Extension of the spec: present on input refusals only. INVALID_DOCUMENT (400, "Arquivo corrompido ou ilegível"): the file has a JPEG/PNG/PDF signature but cannot be decoded. DOCUMENT_TOO_COMPLEX (400, "Documento excede os limites de processamento"): decoding or rendering would exceed the per-request budget (15 s, 40 MP decoded image, 4 PDF pages; the work is cancelled).',
  })),
});
const Campo = Type.Object({
  valor: Type.String(),
  confianca: Type.Number(),
  valido: Type.Optional(Type.Boolean()),
  valida: Type.Optional(Type.Boolean()),
});

const OcrResponse = Type.Object({
  success: Type.Boolean({ description: 'false when the document is not read as a CNH (documento_tipo DESCONHECIDO, see motivo)' }),
  documento_tipo: Type.String({ description: 'CNH, or DESCONHECIDO (extension of the spec) for a blank page, a photo or another document: every field is then empty' }),
  motivo: Type.Optional(Type.String({ description: 'Extension of the spec, only with success false: DOCUMENTO_NAO_RECONHECIDO (too little of a CNH was found: fewer than 3 of its labels and header words, fewer than 4 of its main fields)' })),
  campos: Type.Object(Object.fromEntries(CNH_FIELD_NAMES.map((n) => [n, Campo]))),
  metadados: Type.Object({
    total_campos_extraidos: Type.Integer(),
    qualidade_imagem: Type.String(),
    confianca_media_ocr: Type.Number(),
    tempo_processamento: Type.Number(),
    campos_com_baixa_confianca: Type.Array(Type.String()),
    tamanho_arquivo_bytes: Type.Integer(),
    tipo_arquivo: Type.String(),
    nome_arquivo: Type.String(),
  }),
  texto_completo_ocr: Type.String(),
  face: DocumentFace,
});

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/** POST /api/v1/services/ocr/process-cnh: multipart field `file` (JPEG, PNG or PDF, at most 20 MB). */
export function ocrRoutes(services: StationServices, authenticate: Authenticate): FastifyPluginAsync {
  return async (app) => {
    app.addHook('onRequest', authenticate);
    app.post('/api/v1/services/ocr/process-cnh', {
      schema: {
        tags: ['ocr'],
        security: [{ bearerAuth: [] }],
        summary: 'Read the fields of a Brazilian driver licence (CNH) from an image or PDF',
        consumes: ['multipart/form-data'],
        response: { 200: OcrResponse, 400: OcrErrorBody, 401: OcrErrorBody, 500: OcrErrorBody, 503: OcrErrorBody },
      },
    }, async (request, reply) => {
      const started = process.hrtime.bigint();
      const fail = (status: 400 | 500, message: string) =>
        reply.status(status).send({ statusCode: status, message, error: status === 400 ? 'Bad Request' : 'Error' });
      if (!request.isMultipart()) return fail(400, 'Arquivo não enviado');
      let upload: { filename: string; bytes: Buffer } | undefined;
      // Extension (./ocr-face.ts): an optional selfie file or ext_id field to compare the card photo with.
      const faceProbe: { selfie?: Uint8Array; extId?: string } = {};
      try {
        for await (const part of request.parts({ limits: { fileSize: OCR_MAX_FILE_BYTES, files: 2 } })) {
          if (part.type === 'file' && part.fieldname === 'file' && !upload) {
            // A part with an empty file name has none (busboy): the response then names it ''.
            upload = { filename: part.filename ?? '', bytes: await part.toBuffer() };
          } else if (part.type === 'file' && part.fieldname === 'selfie' && !faceProbe.selfie) {
            faceProbe.selfie = new Uint8Array(await part.toBuffer());
          } else if (part.type === 'field' && part.fieldname === 'ext_id' && typeof part.value === 'string' && part.value) {
            faceProbe.extId = part.value;
          } else if (part.type === 'file') {
            part.file.resume();
          }
        }
      } catch (e) {
        // Whatever the multipart parser (busboy) refuses is a malformed upload, the client's fault:
        // a 400 in the OCR group's shape, never a 500 (issue #18, finding 4).
        if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') return fail(400, 'Arquivo muito grande. Tamanho máximo: 20MB');
        request.log.debug({ err: e }, 'malformed multipart upload');
        return fail(400, 'Arquivo não enviado');
      }
      if (!upload || upload.bytes.length === 0) return fail(400, 'Arquivo não enviado');
      const bytes = new Uint8Array(upload.bytes.buffer, upload.bytes.byteOffset, upload.bytes.byteLength);
      sniffMime(bytes); // refuses anything but JPEG, PNG and PDF before the recogniser is involved
      const reader = await services.engines.ocr.get().catch(() => {
        throw new OcrError('UNAVAILABLE', 'OCR API unavailable');
      });
      const read = await reader.read(bytes);
      const face = await documentFace(services, tenantOf(request), bytes, read.tipo_arquivo, faceProbe);
      const fields = Object.entries(read.campos);
      const extracted = fields.filter(([, f]) => f.valor !== '');
      const meanConfidence = extracted.length ? extracted.reduce((s, [, f]) => s + f.confianca, 0) / extracted.length : 0;
      return {
        success: read.documento_tipo === 'CNH',
        documento_tipo: read.documento_tipo,
        ...(read.motivo ? { motivo: read.motivo } : {}),
        campos: read.campos,
        metadados: {
          total_campos_extraidos: extracted.length,
          qualidade_imagem: read.qualidade_imagem,
          confianca_media_ocr: round(meanConfidence, 4),
          tempo_processamento: round(Number(process.hrtime.bigint() - started) / 1e9, 3),
          campos_com_baixa_confianca: fields.filter(([, f]) => f.confianca < LOW_CONFIDENCE).map(([name]) => name),
          tamanho_arquivo_bytes: upload.bytes.length,
          tipo_arquivo: read.tipo_arquivo,
          nome_arquivo: upload.filename,
        },
        texto_completo_ocr: read.texto_completo_ocr,
        ...face,
      };
    });
  };
}
