import type { Command } from 'commander';
import type { StationConfig } from '../runtime/config.js';
import { ConfigError } from '../runtime/config.js';
import { openStore } from '../store/index.js';
import { stationPaths } from '../station.js';
import { encryptPlainTemplates } from '../store/encryption/migrate-plain.js';
import {
  discardNextMasterKey, loadMasterKeys, parseMasterKey, promoteNextMasterKey, stageNextMasterKey, type MasterKey,
} from '../store/encryption/master-key.js';

/**
 * `biostation keys rotate`, `biostation keys migrate` and `biostation audit` (issue #18, finding 5), registered on the main
 * command line by src/cli.ts. Both work on the data directory (or PostgreSQL registry) of the
 * configuration, beside a running station.
 */
export function addSecurityCommands(program: Command, config: () => StationConfig): void {
  const keys = program.command('keys').description('the station master key that wraps the template data keys');

  keys
    .command('rotate')
    .description(
      're-wrap every application\'s data key under a new master key (templates are not re-encrypted; a running station keeps serving). ' +
        'With a key file: a new file is generated. With BIOSTATION_MASTER_KEY: give the new key in BIOSTATION_NEW_MASTER_KEY, then restart with it.',
    )
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const c = config();
      const file = c.masterKeyFile ?? stationPaths(c.dataDir).masterKey;
      const settings = { kind: c.store, dataDir: c.dataDir, databaseUrl: c.databaseUrl };
      let next: MasterKey;
      let provided: MasterKey | undefined;
      if (c.masterKey) {
        provided = parseMasterKey(c.masterKey, 'BIOSTATION_MASTER_KEY');
        if (!process.env.BIOSTATION_NEW_MASTER_KEY) throw new ConfigError('keys rotate with BIOSTATION_MASTER_KEY needs the new key in BIOSTATION_NEW_MASTER_KEY (openssl rand -base64 32)');
        next = parseMasterKey(process.env.BIOSTATION_NEW_MASTER_KEY, 'BIOSTATION_NEW_MASTER_KEY');
      } else {
        loadMasterKeys({ file }); // creates the key file on a fresh data directory
        next = stageNextMasterKey(file);
      }
      // The keyring loads the current key and the staged one; rewrapAll unwraps with whichever wrapped each data key.
      const store = await openStore({ ...settings, encryption: { file, provided } });
      const keyring = store.keyring!;
      try {
        const rewrapped = await keyring.rewrapAll(next);
        if (!provided) {
          promoteNextMasterKey(file);
          // A station creating an application between the two steps wrapped its key with the old one: wrap again.
          await keyring.rewrapAll(next);
        }
        const value = { rewrapped, masterKeyId: next.id, ...(provided ? { restartWith: 'BIOSTATION_MASTER_KEY=<the new key>' } : { keyFile: file }) };
        process.stdout.write(`${opts.json ? JSON.stringify(value) : `re-wrapped ${rewrapped} data key(s) under master key ${next.id}${provided ? '; restart the station with the new BIOSTATION_MASTER_KEY' : ` (${file})`}`}\n`);
      } catch (e) {
        if (!provided) discardNextMasterKey(file);
        throw e;
      } finally {
        await store.close();
      }
    });

  keys
    .command('migrate')
    .description(
      'encrypt the template rows stored in clear before encryption at rest existed, online (a running station keeps serving), ' +
        'in batches, each one transaction; idempotent (a second run encrypts nothing). Stores that had rows in clear are then compacted ' +
        '(SQLite: VACUUM, so no freed page keeps the old bytes).',
    )
    .option('--batch <n>', 'rows per transaction', '500')
    .option('--json', 'print one JSON object')
    .action(async (opts: { batch: string; json?: boolean }) => {
      const c = config();
      const batch = Number(opts.batch);
      if (!Number.isInteger(batch) || batch < 1) throw new ConfigError('--batch must be a positive integer');
      const file = c.masterKeyFile ?? stationPaths(c.dataDir).masterKey;
      const provided = c.masterKey ? parseMasterKey(c.masterKey, 'BIOSTATION_MASTER_KEY') : undefined;
      const store = await openStore({ kind: c.store, dataDir: c.dataDir, databaseUrl: c.databaseUrl, encryption: { file, provided } });
      try {
        const result = await encryptPlainTemplates(store, { batch });
        process.stdout.write(`${opts.json ? JSON.stringify(result) : `encrypted ${result.encrypted} of ${result.scanned} template row(s) in ${result.applications} application(s)${result.raced ? ` (${result.raced} changed meanwhile, left to that write)` : ''}`}\n`);
      } finally {
        await store.close();
      }
    });

  program
    .command('audit')
    .description('print the audit trail of biometric operations (append-only; no biometric data)')
    .option('--since <time>', 'ISO 8601 time, or a duration back from now: 30m, 24h, 7d', '24h')
    .option('--until <time>', 'ISO 8601 time (default: now)')
    .option('--app <key>', 'only this application (its key)')
    .option('--limit <n>', 'at most this many entries', '10000')
    .option('--json', 'print one JSON object')
    .action(async (opts: { since: string; until?: string; app?: string; limit: string; json?: boolean }) => {
      const c = config();
      const store = await openStore({ kind: c.store, dataDir: c.dataDir, databaseUrl: c.databaseUrl });
      try {
        let applicationId: string | undefined;
        if (opts.app) {
          const app = await store.applications.findByKey(opts.app);
          if (!app) throw new ConfigError(`no application with key ${opts.app}`);
          applicationId = app.id;
        }
        const limit = Number(opts.limit);
        if (!Number.isInteger(limit) || limit < 1) throw new ConfigError('--limit must be a positive integer');
        const entries = await store.audit.query({ since: timeOf(opts.since), until: opts.until && timeOf(opts.until), applicationId, limit });
        if (opts.json) process.stdout.write(`${JSON.stringify({ entries })}\n`);
        else {
          const lines = entries.map((e) => `${e.at}  ${e.operation.padEnd(22)} ${String(e.httpStatus)} ${e.resultCode ?? '-'}  app=${e.applicationId ?? '-'} ext_id=${e.extId ?? '-'} req=${e.requestId}`);
          process.stdout.write(`${lines.join('\n') || '(no entries)'}\n`);
        }
      } finally {
        await store.close();
      }
    });
}

/** An ISO time, or `<n>m|h|d` back from now, as an ISO string. @throws ConfigError */
export function timeOf(text: string, now = Date.now()): string {
  const rel = /^(\d+)\s*(m|h|d)$/.exec(text.trim());
  if (rel) return new Date(now - Number(rel[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[rel[2] as 'm' | 'h' | 'd']).toISOString();
  const t = Date.parse(text);
  if (Number.isNaN(t)) throw new ConfigError(`not a time: ${text} (ISO 8601, or 30m, 24h, 7d)`);
  return new Date(t).toISOString();
}
