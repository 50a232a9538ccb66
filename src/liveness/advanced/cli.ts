/** `biostation liveness rotate-key|show-key`: the station's advanced-liveness key pair. */
import path from 'node:path';
import type { Command } from 'commander';
import type { StationConfig } from '../../runtime/config.js';
import { LIVENESS_KEY_FILE, LivenessKeyStore } from './keys.js';

export function registerLivenessCommands(program: Command, config: () => StationConfig): void {
  const cmd = program.command('liveness').description('advanced liveness: the key pair payloads are sealed to');
  const open = () => LivenessKeyStore.open(path.join(config().dataDir, LIVENESS_KEY_FILE));
  const out = (json: boolean | undefined, value: object, text: string) => process.stdout.write(`${json ? JSON.stringify(value) : text}\n`);
  cmd
    .command('show-key')
    .description('print the current key id and public key')
    .option('--json', 'print one JSON object')
    .action((opts: { json?: boolean }) => {
      const k = open().current;
      out(opts.json, { kid: k.kid, publicKey: k.publicPoint.toString('base64url'), createdAt: k.createdAt }, `liveness key ${k.kid} (created ${k.createdAt})`);
    });
  cmd
    .command('rotate-key')
    .description('make a new current key; the previous one still opens payloads sealed before (a running station picks the change up)')
    .option('--json', 'print one JSON object')
    .action((opts: { json?: boolean }) => {
      const store = open();
      const before = store.current.kid;
      const k = store.rotate();
      out(opts.json, { kid: k.kid, previous: before }, `liveness key rotated: ${before} -> ${k.kid}`);
    });
}
