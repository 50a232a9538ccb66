import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';
import { fakeFaceEngine, fakeFingerEngine } from './fakes.js';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));
}
const image = (name: string) => Buffer.from(`PERSON:${name}`).toString('base64');

/**
 * Issue #16 finding 7: the CNH the clerk confirmed is kept with the enrollment as the person's
 * document record (PUT/GET /api/v1/persons/{ext_id}/document), encrypted at rest with the
 * application's data key, deleted with the person (API delete of the last modality, or a sync
 * tombstone), never an image.
 */
describe('person document record (API extension)', () => {
  let t: TestStation;
  let app: { token: string; id: string };
  const MARKER = 'Zq7docNAMEplaintextmarker';
  const doc = {
    kind: 'CNH',
    fields: { nome_completo: MARKER, cpf: '123.456.789-09', numero_cnh: '01234567890', data_validade: '2030-01-31' },
    photoCheck: { found: true, matched: true, score: 0.93, threshold: 0.85 },
  };
  const enrollFace = (extId: string, who: string) => t.request('POST', `/api/v1/services/face/enroll/${extId}`, { token: app.token, json: { Images: [{ imageData: image(who) }] } });
  const enrollFinger = (extId: string, who: string) => t.request('POST', `/api/v1/services/finger/enroll/${extId}`, { token: app.token, json: { imageData: image(who) } });
  const put = (extId: string, body: unknown) => t.request('PUT', `/api/v1/persons/${extId}/document`, { token: app.token, json: body });
  const get = (extId: string) => t.request('GET', `/api/v1/persons/${extId}/document`, { token: app.token });

  beforeAll(async () => {
    t = await startTestStation({ faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
    app = await t.application('documents');
  });
  afterAll(() => t?.close());

  it('refuses a record for a person not enrolled, and without a token', async () => {
    const res = await put('nobody', doc);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('PERSON_NOT_FOUND');
    expect((await t.request('GET', '/api/v1/persons/nobody/document')).status).toBe(401);
  });

  it('stores the confirmed fields and the photo check with an enrolled person and gives them back', async () => {
    expect((await enrollFace('ana-1', 'ana')).status).toBe(200);
    expect((await get('ana-1')).body).toEqual({ document: null });
    const res = await put('ana-1', doc);
    expect(res.status).toBe(200);
    expect(res.body.document).toMatchObject(doc);
    expect(res.body.document.updatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await get('ana-1')).body).toEqual(res.body);
    // Another application does not see it.
    const other = await t.application('other');
    expect((await t.request('GET', '/api/v1/persons/ana-1/document', { token: other.token })).status).toBe(404);
  });

  it('keeps no field in clear on disk (sealed with the application data key)', async () => {
    const hits = filesUnder(t.dataDir).filter((f) => readFileSync(f).includes(Buffer.from(MARKER)));
    expect(hits).toEqual([]);
  });

  it('refuses an image, unknown properties, bad field names, long values and an empty record with 400', async () => {
    expect((await put('ana-1', { ...doc, image: image('card') })).status).toBe(400);
    expect((await put('ana-1', { ...doc, fields: { Foto: 'x' } })).status).toBe(400);
    expect((await put('ana-1', { ...doc, fields: { foto: 'x'.repeat(301) } })).status).toBe(400);
    expect((await put('ana-1', { ...doc, fields: {} })).status).toBe(400);
    expect((await put('ana-1', { ...doc, kind: 'RG' })).status).toBe(400);
    expect((await put('ana-1', { ...doc, photoCheck: { found: true, photo: image('card') } })).status).toBe(400);
    // The stored record is unchanged.
    expect((await get('ana-1')).body.document.fields.nome_completo).toBe(MARKER);
  });

  it('is deleted with the person: it stays while a fingerprint remains, goes with the last modality', async () => {
    expect((await enrollFace('bia-1', 'bia')).status).toBe(200);
    expect((await enrollFinger('bia-1', 'bia-thumb')).status).toBe(200);
    expect((await put('bia-1', doc)).status).toBe(200);
    expect((await t.request('DELETE', '/api/v1/services/face/bia-1', { token: app.token })).status).toBe(200);
    expect((await get('bia-1')).body.document.fields.cpf).toBe(doc.fields.cpf);
    expect((await t.request('DELETE', '/api/v1/services/finger/bia-1', { token: app.token })).status).toBe(200);
    expect((await get('bia-1')).status).toBe(404);
    const store = await t.station.services.stores.forApplication(app.id);
    expect(await store.documents!.get('bia-1')).toBeUndefined();
    // Enrolled again under the same ext_id: no old record comes back.
    expect((await enrollFace('bia-1', 'bia')).status).toBe(200);
    expect((await get('bia-1')).body).toEqual({ document: null });
  });

  it('is deleted by a sync tombstone of the person', async () => {
    expect((await enrollFace('caio-1', 'caio')).status).toBe(200);
    expect((await put('caio-1', doc)).status).toBe(200);
    const store = await t.station.services.stores.forApplication(app.id);
    const outcome = await store.faces.applyChange({ kind: 'delete', extId: 'caio-1', version: `9999999999999.000000@peer-station`, deletedAt: new Date().toISOString(), stationId: 'peer-station' });
    expect(outcome).toBe('deleted');
    expect(await store.documents!.get('caio-1')).toBeUndefined();
    expect((await get('caio-1')).status).toBe(404);
  });

  it('DELETE removes the record and keeps the person', async () => {
    expect((await t.request('DELETE', '/api/v1/persons/ana-1/document', { token: app.token })).body).toEqual({ deleted: true });
    expect((await get('ana-1')).body).toEqual({ document: null });
    expect((await t.request('DELETE', '/api/v1/persons/ana-1/document', { token: app.token })).status).toBe(404);
    expect((await t.request('GET', '/api/v1/services/face/templates/count/ana-1', { token: app.token })).body.count).toBe(1);
  });

  it('is in the audit trail: document.put / document.get / document.delete with the pseudonymous ext_id', async () => {
    await t.station.services.audit!.flush();
    const { stdout } = await promisify(execFile)('node', ['src/bin/biostation.mjs', 'audit', '--since', '1h', '--json'], {
      env: { ...process.env, BIOSTATION_DATA_DIR: t.dataDir, BIOSTATION_LOG_LEVEL: 'silent' },
    });
    const ops = (JSON.parse(stdout) as { entries: Array<{ operation: string; extId: string | null; httpStatus: number }> }).entries.filter((e) => e.operation.startsWith('document.'));
    expect(new Set(ops.map((e) => e.operation))).toEqual(new Set(['document.put', 'document.get', 'document.delete']));
    expect(ops.every((e) => e.extId !== 'ana-1')).toBe(true);
    expect(ops.some((e) => e.operation === 'document.put' && e.httpStatus === 404)).toBe(true);
  });
});
