/**
 * Issue #18 (reported, item 3): one unreadable stored template (a damaged encrypted row, or a plain
 * row the engine cannot read) made every later face enrolment of its application fail with
 * INVALID_TEMPLATE, since each enrolment's duplicate search loads the application's gallery.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestStation, type TestStation } from '../api/harness.js';
import { fakeFaceEngine } from '../api/fakes.js';

const image = (name: string) => Buffer.from(`PERSON:${name}`).toString('base64');

describe('one unreadable stored template (issue #18)', () => {
  let t: TestStation | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  for (const damage of ['a flipped byte in an encrypted row', 'a plain row of garbage'] as const) {
    it(`does not poison the gallery (${damage}): it is skipped, later enrolments and identify work`, async () => {
      t = await startTestStation({ faceEngine: fakeFaceEngine });
      const app = await t.application('poison');
      for (const name of ['ana', 'bia', 'caio']) {
        const res = await t.request('POST', `/api/v1/services/face/enroll/${name}`, { token: app.token, json: { Images: [{ imageData: image(name) }] } });
        expect(res.status).toBe(200);
      }
      // Counted per station: nothing yet here, whatever the stations before this one in the process met.
      const unreadableLine = /biostation_unreadable_templates_total\{modality="face",stage="(decrypt|engine)"\} [1-9]/;
      expect((await t.request('GET', '/metrics')).body).not.toMatch(unreadableLine);
      // Damage bia's template behind the station's back (another process, a disk fault).
      const db = new Database(path.join(t.dataDir, 'applications', `${app.id}.db`));
      const row = db.prepare("SELECT id, data FROM templates WHERE modality = 'face' AND ext_id = 'bia'").get() as { id: number; data: Buffer };
      const data = damage === 'a plain row of garbage' ? Buffer.from('garbage') : Buffer.from(row.data);
      if (damage !== 'a plain row of garbage') data[data.length - 20] ^= 0xff;
      db.prepare('UPDATE templates SET data = ? WHERE id = ?').run(data, row.id);
      db.prepare("UPDATE revisions SET value = value + 1 WHERE modality = 'face'").run(); // as a write from elsewhere does: the gallery reloads
      db.close();

      const enrol = await t.request('POST', '/api/v1/services/face/enroll/davi', { token: app.token, json: { Images: [{ imageData: image('davi') }] } });
      expect(enrol.status, JSON.stringify(enrol.body)).toBe(200);
      const id = await t.request('POST', '/api/v1/services/face/identify', { token: app.token, json: { Images: [{ imageData: image('caio') }] } });
      expect(id.status, JSON.stringify(id.body)).toBe(200);
      expect(id.body.ExternalID).toBe('caio');
      const metrics = await t.request('GET', '/metrics');
      expect(metrics.body).toMatch(unreadableLine);
    });
  }
});
