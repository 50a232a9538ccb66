import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { BiostationError, ERROR_CATALOGUE, type ErrorCode } from '../runtime/errors.js';
import { FaceError, type FaceErrorCode } from '../face/errors.js';
import { FingerError, type FingerErrorCode } from '../finger/errors.js';
import { LivenessError } from '../liveness/service.js';
import { OcrError } from '../ocr/engine.js';

/**
 * Each group of the spec has its own error body. The group is chosen by path prefix, so a
 * request that never reached its handler (bad JSON, bad token, too large) still gets its
 * group's shape.
 */
export type ErrorStyle = 'result' | 'liveness' | 'ocr' | 'plain';

export function errorStyleOf(url: string): ErrorStyle {
  if (url.startsWith('/api/v1/services/face') || url.startsWith('/api/v1/services/finger')) return 'result';
  if (url.startsWith('/api/v1/services/liveness')) return 'liveness';
  if (url.startsWith('/api/v1/services/ocr')) return 'ocr';
  return 'plain';
}

/** A liveness error body's fields; error_code is absent for 401 (the spec's "none"). */
interface LivenessView {
  status: number;
  message: string;
  errorCode?: string;
}

const HTTP_REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/** Sends a catalogue error in the group's shape. */
export function sendError(request: FastifyRequest, reply: FastifyReply, code: ErrorCode, detail?: string): FastifyReply {
  const entry = ERROR_CATALOGUE[code];
  const status = entry.status;
  const text = detail ?? entry.text;
  switch (errorStyleOf(request.url)) {
    case 'result':
      return reply.status(status).send({ result: { code: entry.resultCode, message: code, detail: text } });
    case 'liveness':
      return sendLiveness(request, reply, livenessView(code, status));
    case 'ocr':
      return reply.status(status).send({ statusCode: status, message: ocrMessage(code, status), error: HTTP_REASON[status] ?? 'Error' });
    default:
      return reply.status(status).send({ statusCode: status, error: HTTP_REASON[status] ?? 'Error', code, message: text });
  }
}

function sendLiveness(request: FastifyRequest, reply: FastifyReply, e: LivenessView): FastifyReply {
  const body: Record<string, unknown> = {
    timestamp: new Date().toISOString(),
    status: e.status,
    error: HTTP_REASON[e.status] ?? 'Error',
    message: e.message,
    path: request.url.split('?')[0],
  };
  if (e.errorCode) body.error_code = e.errorCode;
  return reply.status(e.status).send(body);
}

function livenessView(code: ErrorCode, status: number): LivenessView {
  if (code === 'UNAUTHORIZED') return { status: 401, message: 'Unauthorized' };
  if (status >= 500) return { status: 500, message: 'Internal Server Error', errorCode: 'UNKNOWN' };
  return { status: 400, message: 'Failed to parse file', errorCode: 'UNKNOWN' };
}

function ocrMessage(code: ErrorCode, status: number): string {
  if (code === 'UNAUTHORIZED') return 'Unauthorized';
  if (code === 'ENGINE_UNAVAILABLE') return 'OCR API unavailable';
  if (code === 'PAYLOAD_TOO_LARGE') return 'Arquivo muito grande. Tamanho máximo: 20MB';
  if (status >= 500) return 'Erro ao processar documento';
  return 'Arquivo não enviado';
}

const OCR_ERRORS: Record<OcrError['kind'], { status: number; message: string }> = {
  UNSUPPORTED_TYPE: { status: 400, message: 'Tipo de arquivo não suportado. Use PNG, JPG ou PDF' },
  UNAVAILABLE: { status: 503, message: 'OCR API unavailable' },
  PROCESSING_FAILED: { status: 500, message: 'Erro ao processar documento' },
  // Refusals of the input itself (extensions of the spec's table, documented in the OpenAPI): 400 with a stable `code`.
  INVALID_DOCUMENT: { status: 400, message: 'Arquivo corrompido ou ilegível' },
  DOCUMENT_TOO_COMPLEX: { status: 400, message: 'Documento excede os limites de processamento' },
};
/** OCR error kinds whose body also carries `code` (the spec's own rows keep its exact shape). */
const OCR_CODED = new Set<OcrError['kind']>(['INVALID_DOCUMENT', 'DOCUMENT_TOO_COMPLEX']);

/** The catalogue entry (HTTP status, result code) of each face engine failure. */
const FACE_ERRORS: Record<FaceErrorCode, ErrorCode> = {
  INVALID_IMAGE: 'INVALID_IMAGE',
  IMAGE_TOO_LARGE: 'IMAGE_TOO_LARGE',
  IMAGE_TOO_SMALL: 'IMAGE_TOO_SMALL',
  NO_FACE: 'NO_FACE',
  MULTIPLE_FACES: 'MULTIPLE_FACES',
  FACE_QUALITY_TOO_LOW: 'FACE_QUALITY_TOO_LOW',
  INVALID_TEMPLATE: 'INVALID_TEMPLATE',
  TEMPLATE_INCOMPATIBLE: 'TEMPLATE_INCOMPATIBLE',
  ENGINE_UNAVAILABLE: 'ENGINE_UNAVAILABLE',
};

/** The catalogue entry of each fingerprint engine failure (a resolution out of range is a bad request). */
const FINGER_ERRORS: Record<FingerErrorCode, ErrorCode> = {
  INVALID_IMAGE: 'INVALID_IMAGE',
  IMAGE_TOO_LARGE: 'IMAGE_TOO_LARGE',
  IMAGE_TOO_SMALL: 'IMAGE_TOO_SMALL',
  INVALID_DPI: 'INVALID_REQUEST',
  NO_FINGERPRINT: 'NO_FINGERPRINT',
  FINGERPRINT_QUALITY_TOO_LOW: 'FINGERPRINT_QUALITY_TOO_LOW',
  INVALID_TEMPLATE: 'INVALID_TEMPLATE',
  ENGINE_UNAVAILABLE: 'ENGINE_UNAVAILABLE',
};

/** Maps whatever a handler or Fastify threw to a status and a body; never leaks a 500 for user error. */
export function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof BiostationError && error.code === 'LIVENESS_CHECK_FAILED' && error.details?.liveness && errorStyleOf(request.url) === 'result') {
    // The spec's 1013 body, plus the verdict's score and threshold (documented extension, as `score` on decisions).
    // Sent as is: the route's 200 schema describes its success body (the 1013 body is documented beside it).
    const entry = ERROR_CATALOGUE.LIVENESS_CHECK_FAILED;
    return reply.status(entry.status).serializer(JSON.stringify).send({ result: { code: entry.resultCode, message: error.code, detail: entry.text }, liveness: error.details.liveness });
  }
  if (error instanceof BiostationError) return sendError(request, reply, error.code, error.message);
  if (error instanceof FaceError) return sendError(request, reply, FACE_ERRORS[error.code], error.message);
  if (error instanceof FingerError) return sendError(request, reply, FINGER_ERRORS[error.code], error.message);
  if (error instanceof LivenessError) return sendLiveness(request, reply, error);
  if (error instanceof OcrError) {
    const { status, message } = OCR_ERRORS[error.kind];
    if (status >= 500) request.log.error({ err: error }, 'OCR failure');
    return reply.status(status).send({ statusCode: status, message, error: HTTP_REASON[status], ...(OCR_CODED.has(error.kind) ? { code: error.kind } : {}) });
  }
  const fe = error as FastifyError;
  if (fe.validation) return sendError(request, reply, 'INVALID_REQUEST', `${fe.validationContext ?? 'request'}${fe.message.replace(/^(body|params|querystring|headers)/, '')}`);
  const status = fe.statusCode ?? 500;
  if (status === 413 || fe.code === 'FST_REQ_FILE_TOO_LARGE') return sendError(request, reply, 'PAYLOAD_TOO_LARGE');
  if (status === 415) return sendError(request, reply, 'UNSUPPORTED_MEDIA_TYPE');
  if (status >= 400 && status < 500) {
    return sendError(request, reply, 'INVALID_REQUEST', fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError ? 'The body is not valid JSON' : fe.message);
  }
  request.log.error({ err: error }, 'unexpected error');
  return sendError(request, reply, 'INTERNAL_ERROR');
}
