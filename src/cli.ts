import { existsSync, readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import { ApplicationError, type ApplicationService } from './auth/applications.js';
import { StationAdmin } from './auth/station-admin.js';
import { ConfigError, loadConfig, type StationConfig } from './runtime/config.js';
import { openApplications, startStation, stationPaths } from './station.js';
import { registerSyncCommands } from './sync/cli.js';
import { addSecurityCommands } from './cli/security.js';
import { registerLivenessCommands } from './liveness/advanced/cli.js';
import { registerReaderCommands } from './cli/readers.js';

/**
 * `biostation` command line: `serve` starts the station; `apps create|list|disable|rotate-secret`
 * manage applications in the same data directory (BIOSTATION_DATA_DIR or --data-dir). Every
 * command accepts --json and then prints exactly one JSON object on stdout.
 */
export function buildCli(): Command {
  const program = new Command('biostation')
    .description('Biostation: offline-first multi-biometric enrollment station')
    .addOption(new Option('--data-dir <dir>', 'data directory (default: $BIOSTATION_DATA_DIR or ./data)'))
    .showHelpAfterError();

  const config = () => loadConfig(process.env, program.opts().dataDir ? { dataDir: program.opts().dataDir } : {});

  program
    .command('serve')
    .description('start the station (HTTP API and kiosk UI)')
    .option('--port <port>', 'TCP port (default: $BIOSTATION_PORT or 8080)')
    .option('--host <host>', 'interface to listen on (default: $BIOSTATION_HOST or 127.0.0.1)')
    .action(async (opts: { port?: string; host?: string }) => {
      const overrides: Record<string, unknown> = {};
      if (program.opts().dataDir) overrides.dataDir = program.opts().dataDir;
      if (opts.port !== undefined) overrides.port = Number(opts.port);
      if (opts.host !== undefined) overrides.host = opts.host;
      const config = loadConfig(process.env, overrides);
      const station = await startStation(config);
      const demo = stationPaths(config.dataDir).demoCredentials;
      const credential = existsSync(demo) ? (JSON.parse(readFileSync(demo, 'utf8')) as { key: string; secret: string }) : undefined;
      printBanner(station.url, credential, station.demoCredential !== undefined, demo);
      // Shown once, on the start that created it; only its hash is kept (station-admin.json).
      if (station.stationAdminSecret) process.stderr.write(`  Station admin secret (Admin screen; shown only now): ${station.stationAdminSecret}\n`);
      let stopping = false;
      const stop = async (signal: string) => {
        if (stopping) return;
        stopping = true;
        station.server.log.info({ signal }, 'shutting down');
        await station.close();
        process.exit(0);
      };
      // A bug in one request must not take the station down: log it loudly and keep serving.
      process.on('unhandledRejection', (reason) => station.server.log.error({ err: reason }, 'unhandled rejection'));
      process.on('SIGINT', () => void stop('SIGINT'));
      process.on('SIGTERM', () => void stop('SIGTERM'));
    });

  const apps = program.command('apps').description('manage applications (each has its own database and credential)');

  apps
    .command('create')
    .description('create an application and print its key and secret (the secret is shown only once)')
    .requiredOption('--name <name>', 'application name')
    .option('--json', 'print one JSON object')
    .action(async (opts: { name: string; json?: boolean }) =>
      withApplications(config(), async (service) => {
        const credential = await service.create(opts.name);
        print(opts.json, credential, `application ${credential.name}\n  key:    ${credential.key}\n  secret: ${credential.secret}\n(the secret is not stored and cannot be shown again)`);
      }),
    );

  apps
    .command('list')
    .description('list applications')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) =>
      withApplications(config(), async (service) => {
        const list = (await service.list()).map((a) => ({
          name: a.name, key: a.key, createdAt: a.createdAt, disabledAt: a.disabledAt, faceThreshold: a.faceThreshold, fingerThreshold: a.fingerThreshold,
          dedupPolicy: a.dedupPolicy ?? 'warn',
        }));
        print(opts.json, { applications: list }, list.map((a) => `${a.key}  ${a.name}  created ${a.createdAt}${a.disabledAt ? `  DISABLED ${a.disabledAt}` : ''}`).join('\n') || '(no applications)');
      }),
    );

  apps
    .command('disable')
    .description('disable an application: its credential and every token it holds stop working')
    .argument('<key>', 'application key')
    .option('--json', 'print one JSON object')
    .action(async (key: string, opts: { json?: boolean }) =>
      withApplications(config(), async (service) => {
        await service.disable(key);
        print(opts.json, { key, disabled: true }, `application ${key} disabled`);
      }),
    );

  apps
    .command('rotate-secret')
    .description('issue a new secret; the old one stops working at once')
    .argument('<key>', 'application key')
    .option('--json', 'print one JSON object')
    .action(async (key: string, opts: { json?: boolean }) =>
      withApplications(config(), async (service) => {
        const credential = await service.rotateSecret(key);
        print(opts.json, credential, `application ${credential.name}\n  key:    ${credential.key}\n  secret: ${credential.secret}`);
      }),
    );

  apps
    .command('set-threshold')
    .description("set an application's decision thresholds ('default' restores the engine's calibrated one)")
    .argument('<key>', 'application key')
    .option('--face <similarity>', 'face threshold (cosine similarity)')
    .option('--finger <score>', 'fingerprint threshold (matcher score)')
    .option('--liveness <probability>', 'passive liveness threshold (doLivenessCheck), 0..1: higher rejects more attacks and more live faces')
    .option('--json', 'print one JSON object')
    .action(async (key: string, opts: { face?: string; finger?: string; liveness?: string; json?: boolean }) =>
      withApplications(config(), async (service) => {
        const parse = (v: string | undefined) => (v === undefined ? undefined : v === 'default' ? null : Number(v));
        await service.setThresholds(key, { faceThreshold: parse(opts.face), fingerThreshold: parse(opts.finger), livenessThreshold: parse(opts.liveness) });
        const app = (await service.list()).find((a) => a.key === key)!;
        const value = { key, faceThreshold: app.faceThreshold, fingerThreshold: app.fingerThreshold, livenessThreshold: app.livenessThreshold ?? null };
        print(opts.json, value, `application ${key}: face threshold ${app.faceThreshold ?? 'default'}, finger threshold ${app.fingerThreshold ?? 'default'}, liveness threshold ${app.livenessThreshold ?? 'default'}`);
      }),
    );

  apps
    .command('set-dedup')
    .description('de-duplication at enrollment: off (no search), warn (enroll, list matching persons; default) or block (refuse with DUPLICATE_FOUND)')
    .argument('<key>', 'application key')
    .argument('<policy>', 'off | warn | block')
    .option('--json', 'print one JSON object')
    .action(async (key: string, policy: string, opts: { json?: boolean }) =>
      withApplications(config(), async (service) => {
        await service.setDedupPolicy(key, policy);
        print(opts.json, { key, dedupPolicy: policy }, `application ${key}: de-duplication ${policy}`);
      }),
    );

  registerLivenessCommands(program, config);

  registerReaderCommands(program);

  addSecurityCommands(program, config);

  program
    .command('admin')
    .description('the station-admin credential (Admin screen and /api/v1/admin)')
    .command('reset-secret')
    .description('issue a new station-admin secret and print it once (the old one stops working)')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      const file = stationPaths(config().dataDir).stationAdmin;
      const { admin, createdSecret } = await StationAdmin.open(file);
      const secret = createdSecret ?? (await admin.rotate());
      print(opts.json, { secret }, `station admin secret: ${secret}\n(only its hash is stored; it cannot be shown again)`);
    });

  registerSyncCommands(program, config);

  return program;
}

async function withApplications(config: StationConfig, run: (service: ApplicationService) => Promise<void>) {
  const registry = await openApplications(config);
  try {
    await run(registry.applications);
  } finally {
    await registry.close();
  }
}

function print(json: boolean | undefined, value: object, text: string): void {
  process.stdout.write(`${json ? JSON.stringify(value) : text}\n`);
}

function printBanner(url: string, credential: { key: string; secret: string } | undefined, created: boolean, file: string): void {
  const lines = [`Biostation listening on ${url}`, `  API docs: ${url}/api/docs`, `  kiosk UI: ${url}/`];
  // The secret is printed once, on the start that created it (logs and terminals keep what they show).
  if (credential && created) {
    lines.push(
      '  A demo application was created (its secret is shown only now):',
      `    key:    ${credential.key}`,
      `    secret: ${credential.secret}`,
      `    (saved in ${file}, mode 0600)`,
      '  Get a token:',
      `    curl -s -X POST ${url}/api/v1/app-credentials/token -H 'content-type: application/json' -d '{"key":"${credential.key}","secret":"${credential.secret}"}'`,
    );
  } else if (credential) {
    lines.push(`  Demo application: key ${credential.key} (secret in ${file}, mode 0600)`);
  }
  process.stderr.write(`${lines.join('\n')}\n`);
}

/** Runs the CLI; user errors print one line (or one JSON object) and exit 1. */
export async function main(argv = process.argv): Promise<void> {
  try {
    await buildCli().parseAsync(argv);
  } catch (e) {
    if (e instanceof ApplicationError || e instanceof ConfigError) {
      const json = argv.includes('--json');
      const code = e instanceof ApplicationError ? e.code : 'INVALID_CONFIGURATION';
      if (json) process.stdout.write(`${JSON.stringify({ error: code, message: e.message })}\n`);
      else process.stderr.write(`biostation: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}
