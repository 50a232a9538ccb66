import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from './harness.js';

const LIMIT = 4;

/** Dump pages are complete and disjoint for 0, 1, limit-1, limit, limit+1 and 2.5 x limit persons. */
describe('face dump pagination', () => {
  let t: TestStation;
  beforeAll(async () => {
    t = await startTestStation();
  });
  afterAll(() => t.close());

  for (const n of [0, 1, LIMIT - 1, LIMIT, LIMIT + 1, 2.5 * LIMIT]) {
    it(`${n} persons`, async () => {
      const app = await t.application(`dump-${n}`);
      const store = await t.station.services.stores.forApplication(app.id);
      const ids = Array.from({ length: n }, (_, i) => `p-${String(i).padStart(3, '0')}`);
      for (const id of ids) await store.faces.create(id, [{ data: new Uint8Array([1, 2, 3]) }, { data: new Uint8Array([4]) }], new Date().toISOString());

      const seen: string[] = [];
      const pages = Math.ceil(n / LIMIT) + 1; // one page past the end must be empty
      for (let page = 1; page <= pages; page++) {
        const res = await t.request('GET', `/api/v1/services/face/dump?page=${page}&limit=${LIMIT}`, { token: app.token });
        expect(res.status).toBe(200);
        expect(res.body.result.total_entries).toBe(n);
        const faces = res.body.result.faces;
        expect(faces.length).toBe(Math.max(0, Math.min(LIMIT, n - (page - 1) * LIMIT)));
        for (const f of faces) {
          expect(f.Templates).toEqual([{ Data: 'AQID' }, { Data: 'BA==' }]);
          expect(Date.parse(f.CreatedAt)).not.toBeNaN();
          expect(Date.parse(f.UpdatedAt)).not.toBeNaN();
          seen.push(f.ExternalID);
        }
      }
      expect(seen).toEqual(ids); // complete, disjoint, in enrollment order
    });
  }

  it('defaults to page 1 and 100 per page, and refuses bad paging with 400', async () => {
    const app = await t.application('dump-bad');
    expect((await t.request('GET', '/api/v1/services/face/dump', { token: app.token })).status).toBe(200);
    for (const q of ['page=0', 'page=-1', 'page=abc', 'limit=0', 'limit=1001', 'limit=2.5']) {
      const res = await t.request('GET', `/api/v1/services/face/dump?${q}`, { token: app.token });
      expect(res.status, q).toBe(400);
      expect(res.body.result.message, q).toBe('INVALID_REQUEST');
    }
  });
});
