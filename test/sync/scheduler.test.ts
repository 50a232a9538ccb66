import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from '../api/harness.js';
import { fakeFaceEngine, faceBody } from '../api/fakes.js';

/** BIOSTATION_SYNC_PEERS + BIOSTATION_SYNC_INTERVAL_S: the station syncs in the background and logs it. */
describe('scheduled sync', () => {
  let field: TestStation;
  let central: TestStation;
  let fieldToken: string;
  let centralToken: string;

  beforeAll(async () => {
    field = await startTestStation({ faceEngine: fakeFaceEngine });
    const app = await field.application('field');
    fieldToken = app.token;
    central = await startTestStation({
      faceEngine: fakeFaceEngine,
      config: { syncIntervalSeconds: 1, syncPeers: [{ name: 'field', url: field.url, key: app.key, secret: app.secret, app: 'central' }] },
    });
    centralToken = (await central.application('central')).token;
  });
  afterAll(async () => {
    await central?.close();
    await field?.close();
  });

  it('pulls and pushes every interval; the log shows both', async () => {
    await field.request('POST', '/api/v1/services/face/enroll/ana', { token: fieldToken, json: faceBody('ana') });
    await central.request('POST', '/api/v1/services/face/enroll/bia', { token: centralToken, json: faceBody('bia') });
    const deadline = Date.now() + 10_000;
    let fieldCount = 0;
    let centralCount = 0;
    while (Date.now() < deadline && (fieldCount < 2 || centralCount < 2)) {
      await new Promise((r) => setTimeout(r, 200));
      fieldCount = (await field.request('GET', '/api/v1/services/face/count', { token: fieldToken })).body.count;
      centralCount = (await central.request('GET', '/api/v1/services/face/count', { token: centralToken })).body.count;
    }
    expect([fieldCount, centralCount]).toEqual([2, 2]);
    const status = (await central.request('GET', '/api/v1/sync/status', { token: centralToken })).body;
    expect(status.history.map((h: { direction: string }) => h.direction)).toEqual(expect.arrayContaining(['pull', 'push']));
    expect(status.lastSync).toMatchObject({ error: null });
  });
});
