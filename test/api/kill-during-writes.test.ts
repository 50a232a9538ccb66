import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/runtime/config.js';
import { createLogger } from '../../src/runtime/logger.js';
import { startStation } from '../../src/station.js';
import { fakeFaceEngine, fakeFingerEngine } from './fakes.js';

const TRIALS = Number(process.env.KILL_TRIALS ?? 1);
const image = (name: string) => Buffer.from(`PERSON:${name}`).toString('base64');

/**
 * A whole station (HTTP, encryption at rest, audit trail) killed with SIGKILL while clients
 * enrol: every enrolment it acknowledged (HTTP 200) is there after a restart, its template
 * decrypts, and SQLite's integrity check passes. KILL_TRIALS sets the number of kills.
 */
describe('SIGKILL during writes (issue #18, tests that stay)', () => {
  it(`loses no acknowledged write over ${TRIALS} kill(s)`, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bs-kill-'));
    const script = path.join(dataDir, '..', `bs-kill-${path.basename(dataDir)}.mts`);
    writeFileSync(
      script,
      `import { loadConfig } from ${JSON.stringify(path.resolve('src/runtime/config.ts'))};
       import { startStation } from ${JSON.stringify(path.resolve('src/station.ts'))};
       import { createLogger } from ${JSON.stringify(path.resolve('src/runtime/logger.ts'))};
       import { fakeFaceEngine, fakeFingerEngine } from ${JSON.stringify(path.resolve('test/api/fakes.ts'))};
       const config = loadConfig({}, { dataDir: ${JSON.stringify(dataDir)}, port: 0, logLevel: 'silent', createDemoApplication: false, engines: { face: true, finger: true, ocr: false } });
       const station = await startStation(config, { logger: createLogger('silent'), faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
       const apps = await station.services.applications.list();
       if (!apps.length) await station.services.applications.create('kill');
       const { token } = await station.services.tokens.issue((await station.services.applications.list())[0].id, (await station.services.applications.list())[0].tokenGeneration ?? 0);
       process.stdout.write(JSON.stringify({ url: station.url, token }) + '\\n');`,
    );
    const acknowledged: string[] = [];
    try {
      for (let trial = 0; trial < TRIALS; trial++) {
        const child = spawn('node', ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        const { url, token } = await new Promise<{ url: string; token: string }>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (d) => {
            out += d;
            if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]));
          });
          child.on('exit', (code) => reject(new Error(`station exited early with ${code}`)));
        });
        let stop = false;
        const worker = async (w: number) => {
          for (let i = 0; !stop; i++) {
            const id = `t${trial}w${w}n${i}`;
            const modality = i % 2 ? 'face' : 'finger';
            const json = modality === 'face' ? { Images: [{ imageData: image(id) }] } : { imageData: image(id) };
            try {
              const res = await fetch(`${url}/api/v1/services/${modality}/enroll/${id}`, {
                method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(json),
              });
              if (res.status === 200) acknowledged.push(`${modality}:${id}`);
              else await res.text();
            } catch {
              return; // the station died under this request: not acknowledged
            }
          }
        };
        const workers = [0, 1, 2, 3].map(worker);
        await new Promise((r) => setTimeout(r, 1500));
        const exited = new Promise((r) => child.on('exit', r));
        child.kill('SIGKILL');
        stop = true;
        await exited;
        await Promise.all(workers);
      }
      expect(acknowledged.length).toBeGreaterThan(20);

      for (const file of readdirSync(path.join(dataDir, 'applications')).filter((f) => f.endsWith('.db'))) {
        const db = new Database(path.join(dataDir, 'applications', file));
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        db.close();
      }
      const config = loadConfig({}, { dataDir, port: 0, logLevel: 'silent', createDemoApplication: false, engines: { face: true, finger: true, ocr: false } });
      const station = await startStation(config, { logger: createLogger('silent'), faceEngine: fakeFaceEngine, fingerEngine: fakeFingerEngine });
      try {
        const app = (await station.services.applications.list())[0];
        const store = await station.services.stores.forApplication(app.id);
        const lost: string[] = [];
        for (const entry of acknowledged) {
          const [modality, id] = entry.split(':');
          const person = await (modality === 'face' ? store.faces : store.fingers).find(id);
          if (!person || Buffer.from(person.templates[0].data).toString() !== `T:${id}`) lost.push(entry);
        }
        expect(lost).toEqual([]);
        console.log(`kill-during-writes: ${TRIALS} SIGKILL(s), ${acknowledged.length} acknowledged enrolments, ${lost.length} lost, integrity_check ok`);
      } finally {
        await station.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(script, { force: true });
    }
  });
});
