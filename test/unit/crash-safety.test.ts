import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

const APP = '11111111-2222-3333-4444-555555555555';

/**
 * A station killed (SIGKILL) in the middle of writing loses at most the write in flight: the file
 * passes SQLite's integrity check and every person it holds has all of its templates.
 */
describe('crash safety of the SQLite store', () => {
  it('a process killed mid-write leaves a consistent database', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-crash-'));
    const script = path.join(dir, 'writer.mts');
    const provider = path.resolve('src/store/sqlite/tenant-store-provider.ts');
    writeFileSync(
      script,
      `import { SqliteTenantStoreProvider } from ${JSON.stringify(provider)};
       const store = await (new SqliteTenantStoreProvider(${JSON.stringify(dir)})).forApplication('${APP}');
       const five = Array.from({ length: 5 }, (_, i) => ({ data: new Uint8Array(4096).fill(i + 1) }));
       for (let i = 0; ; i++) {
         await store.faces.create('p' + i, five, new Date().toISOString());
         if (i % 10 === 0) await store.faces.replaceTemplates('p' + (i >> 1), five, new Date().toISOString());
         if (i === 50) process.stdout.write('writing\\n');
       }`,
    );
    const child = spawn('node', ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('writing') && resolve());
      child.on('exit', (code) => reject(new Error(`writer exited early with ${code}`)));
    });
    await new Promise((r) => setTimeout(r, 300));
    const exited = new Promise((r) => child.on('exit', r));
    child.kill('SIGKILL');
    await exited;

    const db = new Database(path.join(dir, 'applications', `${APP}.db`));
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const persons = (db.prepare("SELECT count(*) AS n FROM persons WHERE modality = 'face'").get() as { n: number }).n;
    expect(persons).toBeGreaterThan(50);
    const incomplete = db
      .prepare("SELECT p.ext_id, count(t.id) AS n FROM persons p LEFT JOIN templates t ON t.modality = p.modality AND t.ext_id = p.ext_id GROUP BY p.ext_id HAVING n <> 5")
      .all();
    expect(incomplete).toEqual([]);
    db.close();
  });
});
