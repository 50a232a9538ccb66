import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaceEngine } from '../../src/face/engine.js';
import { CNH_FIELD_NAMES, type CnhReadResult, type CnhReader } from '../../src/ocr/engine.js';
import { startTestStation, type TestStation } from './harness.js';
import { faceBody, fakeFaceEngine } from './fakes.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A "PNG" whose payload the stand-in face engine reads: `PERSON:<name>` holds that face, anything else none. */
const png = (payload: string) => Buffer.concat([PNG_MAGIC, Buffer.from(payload)]);

const reader = async (): Promise<CnhReader> => ({
  async read(): Promise<CnhReadResult> {
    const campos = Object.fromEntries(CNH_FIELD_NAMES.map((n) => [n, { valor: '', confianca: 0 }])) as any;
    campos.nome_completo = { valor: 'MARIA DA SILVA', confianca: 0.95 };
    return { documento_tipo: 'CNH', campos, qualidade_imagem: 'boa', texto_completo_ocr: 'MARIA DA SILVA', tipo_arquivo: 'image/png', modelo: 'CNH_2022', origem_texto: 'ocr' };
  },
  async close() {},
});

/** fakeFaceEngine, reading past the PNG signature (the OCR route only takes JPEG, PNG or PDF). */
const faceEngine = async (): Promise<FaceEngine> => {
  const inner = await fakeFaceEngine();
  const strip = (b: Uint8Array) => (PNG_MAGIC.every((x, i) => b[i] === x) ? b.subarray(8) : b);
  return { ...inner, extract: (image, mode) => inner.extract(strip(image), mode) };
};

/** Selfie <-> CNH photo (issue #16): the `face` extension of the OCR response. */
describe('OCR response: the card photo and its comparison', () => {
  let t: TestStation;
  let token: string;
  const read = (document: Buffer, extra: (form: FormData) => void = () => undefined) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(document)]), 'cnh.png');
    extra(form);
    return t.request('POST', '/api/v1/services/ocr/process-cnh', { token, body: form });
  };

  beforeAll(async () => {
    t = await startTestStation({ cnhReader: reader, faceEngine });
    token = (await t.application('ocr-face')).token;
    await t.request('POST', '/api/v1/services/face/enroll/maria-1', { token, json: faceBody('maria') });
  });
  afterAll(() => t.close());

  it('reports the photo found on the card, without a comparison when nothing was given', async () => {
    const res = await read(png('PERSON:maria'));
    expect(res.status).toBe(200);
    expect(res.body.campos.nome_completo.valor).toBe('MARIA DA SILVA');
    expect(res.body.face).toEqual({ found: true, box: { x: 0, y: 0, width: 100, height: 100 } });
  });

  it('says no photo when the card holds no face', async () => {
    expect((await read(png('no face here'))).body.face).toEqual({ found: false });
  });

  it('compares the card photo with a selfie: same person matches, another does not', async () => {
    const same = await read(png('PERSON:maria'), (f) => f.append('selfie', new Blob([new Uint8Array(png('PERSON:maria'))]), 'selfie.png'));
    expect(same.body.face.comparison).toEqual({ against: 'selfie', matched: true, score: 1, threshold: 0.5 });
    const other = await read(png('PERSON:maria'), (f) => f.append('selfie', new Blob([new Uint8Array(png('PERSON:joana'))]), 'selfie.png'));
    expect(other.body.face.comparison).toMatchObject({ against: 'selfie', matched: false, score: 0 });
    const bad = await read(png('PERSON:maria'), (f) => f.append('selfie', new Blob([new Uint8Array(png('NONE'))]), 'selfie.png'));
    expect(bad.body.face.comparison).toEqual({ against: 'selfie', error: 'NO_FACE' });
  });

  it('compares the card photo with an enrolled person by ext_id', async () => {
    const res = await read(png('PERSON:maria'), (f) => f.append('ext_id', 'maria-1'));
    expect(res.body.face.comparison).toEqual({ against: 'ext_id', matched: true, score: 1, threshold: 0.5 });
    const unknown = await read(png('PERSON:maria'), (f) => f.append('ext_id', 'nobody'));
    expect(unknown.body.face.comparison).toEqual({ against: 'ext_id', error: 'PERSON_NOT_FOUND' });
  });
});
