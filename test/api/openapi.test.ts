import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestStation, type TestStation } from './harness.js';

/** Every path of the interface spec, as OpenAPI writes it. */
const SPEC_PATHS: Array<[string, string]> = [
  ['post', '/api/v1/app-credentials/validate'],
  ['post', '/api/v1/app-credentials/token'],
  ['get', '/api/v1/services/face/count'],
  ['get', '/api/v1/services/face/list'],
  ['get', '/api/v1/services/face/dump'],
  ['get', '/api/v1/services/face/templates/count/{ext_id}'],
  ['post', '/api/v1/services/face/enroll/{ext_id}'],
  ['patch', '/api/v1/services/face/{ext_id}'],
  ['get', '/api/v1/services/face/templates/{ext_id}'],
  ['delete', '/api/v1/services/face/{ext_id}'],
  ['post', '/api/v1/services/face/{ext_id}/verify'],
  ['post', '/api/v1/services/face/identify'],
  ['post', '/api/v1/services/face/match'],
  ['get', '/api/v1/services/finger/count'],
  ['get', '/api/v1/services/finger/list'],
  ['get', '/api/v1/services/finger/templates/count/{ext_id}'],
  ['post', '/api/v1/services/finger/enroll/{ext_id}'],
  ['patch', '/api/v1/services/finger/{ext_id}'],
  ['delete', '/api/v1/services/finger/{ext_id}'],
  ['post', '/api/v1/services/finger/{ext_id}/verify'],
  ['post', '/api/v1/services/finger/identify'],
  ['post', '/api/v1/services/finger/images/match'],
  ['post', '/api/v1/services/finger/templates/match'],
  ['post', '/api/v1/services/liveness/check'],
  ['post', '/api/v1/services/ocr/process-cnh'],
];

describe('OpenAPI document', () => {
  let t: TestStation;
  let doc: any;
  beforeAll(async () => {
    t = await startTestStation();
    doc = (await t.request('GET', '/api/openapi.json')).body;
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists every path of the spec with its method', () => {
    for (const [method, p] of SPEC_PATHS) expect(doc.paths[p]?.[method], `${method} ${p}`).toBeDefined();
  });

  it('documents bearer security on protected paths and the error catalogue', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v1/services/face/count'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.paths['/api/v1/app-credentials/token'].post.security).toBeUndefined();
    expect(doc.info.description).toContain('| 1009 | NOT_IDENTIFIED | 200 |');
  });

  it('is browsable at /api/docs', async () => {
    const res = await fetch(`${t.url}/api/docs/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });
});
