import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhReadResult, type CnhReader } from '../../src/ocr/engine.js';
import { startTestStation, type TestStation } from './harness.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A reader that answers fixed fields: the route's envelope, metadata and errors are under test here. */
const fakeReader = async (): Promise<CnhReader> => ({
  async read(): Promise<CnhReadResult> {
    const campos = Object.fromEntries(CNH_FIELD_NAMES.map((n) => [n, { valor: '', confianca: 0 }])) as any;
    campos.nome_completo = { valor: 'MARIA DA SILVA', confianca: 0.95 };
    campos.cpf = { valor: '123.456.789-09', confianca: 0.7, valido: true };
    return {
      documento_tipo: 'CNH', campos, qualidade_imagem: 'boa', texto_completo_ocr: 'NOME\nMARIA DA SILVA',
      tipo_arquivo: 'image/png', modelo: 'CNH_2022', origem_texto: 'ocr',
    };
  },
  async close() {},
});

describe('OCR route: envelope and the spec error table', () => {
  let t: TestStation;
  let token: string;
  const upload = (form: FormData, auth = true) => t.request('POST', '/api/v1/services/ocr/process-cnh', { token: auth ? token : undefined, body: form });
  const fileForm = (bytes: Buffer, name = 'cnh.png', field = 'file') => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)]), name);
    return form;
  };

  beforeAll(async () => {
    t = await startTestStation({ cnhReader: fakeReader });
    token = (await t.application('ocr')).token;
  });
  afterAll(() => t.close());

  it('returns the full response for an image', async () => {
    const res = await upload(fileForm(Buffer.concat([PNG_MAGIC, Buffer.alloc(100)]), 'frente.png'));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.documento_tipo).toBe('CNH');
    expect(Object.keys(res.body.campos).sort()).toEqual([...CNH_FIELD_NAMES].sort());
    expect(res.body.campos.cpf).toEqual({ valor: '123.456.789-09', confianca: 0.7, valido: true });
    expect(res.body.metadados).toMatchObject({
      total_campos_extraidos: 2,
      qualidade_imagem: 'boa',
      confianca_media_ocr: 0.825,
      tamanho_arquivo_bytes: 108,
      tipo_arquivo: 'image/png',
      nome_arquivo: 'frente.png',
    });
    expect(res.body.metadados.campos_com_baixa_confianca).toContain('cpf');
    expect(res.body.metadados.campos_com_baixa_confianca).not.toContain('nome_completo');
    expect(res.body.texto_completo_ocr).toBe('NOME\nMARIA DA SILVA');
  });

  it('400 Arquivo não enviado without a file field', async () => {
    const form = new FormData();
    form.append('other', 'x');
    expect(await upload(form)).toMatchObject({ status: 400, body: { statusCode: 400, message: 'Arquivo não enviado', error: 'Bad Request' } });
    expect((await upload(fileForm(PNG_MAGIC, 'x.png', 'document'))).body.message).toBe('Arquivo não enviado');
  });

  it('400 unsupported type, judged by the bytes and not by the name', async () => {
    const res = await upload(fileForm(Buffer.from('GIF89a....'), 'looks-like.png'));
    expect(res).toMatchObject({ status: 400, body: { statusCode: 400, message: 'Tipo de arquivo não suportado. Use PNG, JPG ou PDF' } });
  });

  it('400 over 20 MB', async () => {
    const res = await upload(fileForm(Buffer.concat([PNG_MAGIC, Buffer.alloc(20 * 1024 * 1024 + 1)])));
    expect(res).toMatchObject({ status: 400, body: { statusCode: 400, message: 'Arquivo muito grande. Tamanho máximo: 20MB' } });
  });

  it('401 Unauthorized', async () => {
    expect(await upload(fileForm(PNG_MAGIC), false)).toMatchObject({ status: 401, body: { statusCode: 401, message: 'Unauthorized', error: 'Unauthorized' } });
  });

  it('503 OCR API unavailable when the reader cannot start', async () => {
    const bare = await startTestStation({ cnhReader: async () => { throw new Error('no workers'); } });
    try {
      const app = await bare.application('o');
      const form = fileForm(Buffer.concat([PNG_MAGIC, Buffer.alloc(10)]));
      const res = await bare.request('POST', '/api/v1/services/ocr/process-cnh', { token: app.token, body: form });
      expect(res).toMatchObject({ status: 503, body: { statusCode: 503, message: 'OCR API unavailable' } });
    } finally {
      await bare.close();
    }
  });
});

describe('advanced liveness route', () => {
  let t: TestStation;
  let token: string;
  beforeAll(async () => {
    t = await startTestStation();
    token = (await t.application('live')).token;
  });
  afterAll(() => t.close());

  it('answers a payload it cannot parse with the spec error body', async () => {
    const res = await t.request('POST', '/api/v1/services/liveness/check', { token, body: Buffer.from('not a capture'), headers: { 'content-type': 'application/octet-stream' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ timestamp: expect.any(String), status: 400, error: 'Bad Request', message: 'Failed to parse file', path: '/api/v1/services/liveness/check', error_code: 'UNKNOWN' });
  });

  it('a JSON body instead of octet-stream gets the same shape', async () => {
    const res = await t.request('POST', '/api/v1/services/liveness/check', { token, json: { a: 1 } });
    expect(res.status).toBe(400);
    expect(res.body.error_code).toBe('UNKNOWN');
  });
});

describe('operations endpoints', () => {
  let t: TestStation;
  beforeAll(async () => {
    t = await startTestStation();
  });
  afterAll(() => t.close());

  it('health, ready (engines disabled count as ready), metrics, request ids', async () => {
    const health = await t.request('GET', '/health');
    expect(health.body).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toBeTruthy();
    expect((await t.request('GET', '/ready')).body).toEqual({ ready: true, engines: { face: 'disabled', finger: 'disabled', ocr: 'disabled' } });
    const metrics = await t.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.body).toContain('biostation_http_request_duration_seconds');
  });

  it('an unknown route is a 404 in the group shape', async () => {
    const res = await t.request('GET', '/api/v1/services/face/nope/nope/nope');
    expect(res.status).toBe(404);
  });
});
