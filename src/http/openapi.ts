import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { ERROR_TABLE } from './schemas.js';

/** OpenAPI 3.1 document options; paths and schemas come from the route schemas. */
export const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    openapi: '3.1.0',
    info: {
      title: 'Biostation API',
      version: '1.0.0',
      description: [
        'Multi-biometric recognition station: credentials, face, fingerprint, liveness and CNH OCR.',
        'Every path except the credential endpoints, /health, /ready and /metrics needs `Authorization: Bearer <token>`;',
        'the token selects the application and so its database.',
        '',
        'Decisions left open by the interface specification, applied everywhere:',
        '- Enroll creates a face person (409 PERSON_ALREADY_EXISTS if the ext_id exists); PATCH replaces all its templates (404 if unknown).',
        '- A fingerprint enroll adds one template (creating the person if needed, at most 20); PATCH replaces all of them with the one sent.',
        '- A non-match (1003 NOT_VERIFIED, 1011 NOT_MATCHED) and no person found (1009 NOT_IDENTIFIED, ExternalID null) are HTTP 200 results.',
        '- Liveness failure (1013) is HTTP 200: with `doLivenessCheck: true` every image of enroll, PATCH, verify, identify and match is checked',
        '  (passive, single image) before anything is stored or compared; an attack gives `{ result: { code: 1013, message: LIVENESS_CHECK_FAILED,',
        '  detail: "liveness check failed" }, liveness: { score, threshold, mode, evidence } }` and stores nothing. A passing request carries',
        '  `livenessEvaluated: true` and `liveness: { score, threshold, mode, scores }` (extension; `score` is the lowest of the images).',
        '  A face too small, blurred or badly exposed to be judged is 400 FACE_QUALITY_TOO_LOW (1027), not 1013. Without doLivenessCheck nothing changes.',
        '- Face and fingerprint errors are `{ result: { code, message: <STABLE_CODE>, detail } }` with these codes:',
        '',
        '| result code | message | HTTP | meaning |',
        '|---|---|---|---|',
        ERROR_TABLE,
        '',
        'Timestamps are ISO 8601 UTC with milliseconds. `dump` pages are 1-based.',
      ].join('\n'),
    },
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    tags: [
      { name: 'credentials' }, { name: 'face' }, { name: 'finger' }, { name: 'liveness' }, { name: 'ocr' },
      { name: 'sync', description: 'Extension: station-to-station sync' }, { name: 'documents', description: 'Extension: the identity document confirmed at enrollment, kept with the person' }, { name: 'operations' },
    ],
  },
};
