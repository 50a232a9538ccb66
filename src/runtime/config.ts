import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/**
 * Station configuration. Sources, later ones winning: defaults, the JSON file named by
 * BIOSTATION_CONFIG (or `configFile`), environment variables, explicit overrides.
 * Validated once at start; an invalid value stops the station with a message naming the key.
 */
export const StationConfigSchema = Type.Object({
  /** Folder of the signing key and, with the SQLite store, the registry and one file per application. */
  dataDir: Type.String({ minLength: 1 }),
  /** `sqlite` (embedded default) or `postgres` (several API nodes over one server). */
  store: Type.Union([Type.Literal('sqlite'), Type.Literal('postgres')]),
  /** PostgreSQL connection string, for store `postgres`. */
  databaseUrl: Type.Optional(Type.String({ minLength: 1 })),
  host: Type.String({ minLength: 1 }),
  /** 0 picks a free port (tests). */
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  /** Lifetime of issued access tokens, seconds. */
  tokenTtlSeconds: Type.Integer({ minimum: 60, maximum: 7 * 24 * 3600 }),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
  /** Largest JSON body accepted (face/fingerprint images travel base64 in JSON). */
  jsonBodyLimitBytes: Type.Integer({ minimum: 1024 }),
  /** Largest advanced-liveness payload. */
  livenessBodyLimitBytes: Type.Integer({ minimum: 1024 }),
  /** Credential attempts (validate + token) allowed per client address and minute; argon2 already makes each costly. */
  credentialAttemptsPerMinute: Type.Integer({ minimum: 1 }),
  /** Create a demo application on first start with an empty data directory. */
  createDemoApplication: Type.Boolean(),
  /** Which engines the station loads; a disabled engine answers 503 ENGINE_UNAVAILABLE. */
  engines: Type.Object({ face: Type.Boolean(), finger: Type.Boolean(), ocr: Type.Boolean() }),
  /**
   * Face extraction worker threads, each with its own models (about 120 MB of memory each); 0 extracts
   * on the main thread, which onnxruntime then blocks for every face (25-40 ms).
   */
  faceWorkers: Type.Integer({ minimum: 0, maximum: 16 }),
  /**
   * Fingerprint extraction (image decoding + minutiae) worker threads; 0 extracts on the main thread,
   * which a large image then blocks for hundreds of milliseconds.
   */
  fingerWorkers: Type.Integer({ minimum: 0, maximum: 16 }),
  /** OCR recogniser workers (default: cores) and the bounded queue beyond them. */
  ocrPoolSize: Type.Integer({ minimum: 1, maximum: 32 }),
  ocrMaxQueue: Type.Integer({ minimum: 0, maximum: 1000 }),
  /** Folder of the built kiosk UI served at `/` (when it exists). */
  uiDir: Type.String(),
  /**
   * Station sync peers (src/sync): which local application (`app`: its key, or its name when no
   * other application has that name; a shared name is ignored with a warning) syncs with which
   * application (`key`/`secret`) on which station (`url`). Set by the station's operator (env
   * BIOSTATION_SYNC_PEERS as a JSON array, or the config file), read-only to the station; the station
   * admin may add more from the kiosk's Admin screen (kept in the station registry, shared by every API node: src/sync/peer-registry.ts).
   */
  syncPeers: Type.Array(Type.Object({
    name: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9._-]+$' }),
    url: Type.String({ minLength: 1, maxLength: 500, pattern: '^https?://' }),
    key: Type.String({ minLength: 1, maxLength: 200 }),
    secret: Type.String({ minLength: 1, maxLength: 200 }),
    app: Type.String({ minLength: 1, maxLength: 200 }),
  }, { additionalProperties: false }), { maxItems: 32 }),
  /** Seconds between background syncs (pull then push) with every configured peer; 0: none. */
  syncIntervalSeconds: Type.Integer({ minimum: 0, maximum: 7 * 24 * 3600 }),
  /** Days a tombstone (a delete's trace) is kept for peers that have not synced yet. */
  syncTombstoneDays: Type.Integer({ minimum: 1, maximum: 3650 }),
  /**
   * HTTP server time limits, milliseconds: the whole request (headers and body) must arrive within
   * requestTimeoutMs, its headers within headersTimeoutMs; an idle keep-alive connection is closed
   * after keepAliveTimeoutMs. A slow or stalled client then gets 408 or a closed socket, never a held slot.
   */
  requestTimeoutMs: Type.Integer({ minimum: 1000, maximum: 3_600_000 }),
  headersTimeoutMs: Type.Integer({ minimum: 500, maximum: 600_000 }),
  keepAliveTimeoutMs: Type.Integer({ minimum: 100, maximum: 600_000 }),
  /**
   * HTTPS: `off` (plain HTTP, for loopback use), `auto` (a self-signed certificate generated in
   * `<dataDir>/tls/` at first start; peers pin its SHA-256 fingerprint) or `files` (tlsCertFile and
   * tlsKeyFile, PEM, e.g. from the site's own CA).
   */
  tls: Type.Union([Type.Literal('off'), Type.Literal('auto'), Type.Literal('files')]),
  tlsCertFile: Type.Optional(Type.String({ minLength: 1 })),
  tlsKeyFile: Type.Optional(Type.String({ minLength: 1 })),
  /**
   * Station master key wrapping each application's template data key (src/store/encryption): 32
   * bytes in base64 given by the host (BIOSTATION_MASTER_KEY), else read from masterKeyFile
   * (default `<dataDir>/master.key`, mode 0600, created at first start).
   */
  masterKey: Type.Optional(Type.String({ minLength: 40, maxLength: 64 })),
  masterKeyFile: Type.Optional(Type.String({ minLength: 1 })),
  /** How the audit trail records ext_ids: `hash` (HMAC pseudonym per application, default), `clear` or `none`. */
  auditExtIds: Type.Union([Type.Literal('hash'), Type.Literal('clear'), Type.Literal('none')]),
});

export type StationConfig = Static<typeof StationConfigSchema>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function defaultConfig(cwd = process.cwd()): StationConfig {
  return {
    dataDir: path.resolve(cwd, 'data'),
    store: 'sqlite',
    host: '127.0.0.1',
    port: 8080,
    tokenTtlSeconds: 3600,
    logLevel: 'info',
    jsonBodyLimitBytes: 32 * 1024 * 1024,
    livenessBodyLimitBytes: 16 * 1024 * 1024,
    credentialAttemptsPerMinute: 60,
    createDemoApplication: true,
    engines: { face: true, finger: true, ocr: true },
    faceWorkers: Math.max(1, Math.min(4, availableParallelism())),
    fingerWorkers: Math.max(1, Math.min(4, availableParallelism())),
    ocrPoolSize: Math.max(1, Math.min(4, availableParallelism())),
    ocrMaxQueue: 8,
    uiDir: path.resolve(cwd, 'renderer/dist'),
    syncPeers: [],
    syncIntervalSeconds: 0,
    syncTombstoneDays: 90,
    requestTimeoutMs: 120_000,
    headersTimeoutMs: 15_000,
    // Longer than the idle timeouts of clients and load balancers (typically 60 s), so the station is
    // never the side that closes a connection a client is just reusing (a POST lost to a reset).
    keepAliveTimeoutMs: 72_000,
    tls: 'off',
    auditExtIds: 'hash',
  };
}

/** Environment variable -> config key, with the parser applied to the raw string. */
const ENV_KEYS: Array<[string, keyof StationConfig, (raw: string) => unknown]> = [
  ['BIOSTATION_DATA_DIR', 'dataDir', (v) => path.resolve(v)],
  ['BIOSTATION_STORE', 'store', String],
  ['BIOSTATION_DATABASE_URL', 'databaseUrl', String],
  ['BIOSTATION_HOST', 'host', String],
  ['BIOSTATION_PORT', 'port', Number],
  ['BIOSTATION_TOKEN_TTL_SECONDS', 'tokenTtlSeconds', Number],
  ['BIOSTATION_LOG_LEVEL', 'logLevel', String],
  ['BIOSTATION_FACE_WORKERS', 'faceWorkers', Number],
  ['BIOSTATION_FINGER_WORKERS', 'fingerWorkers', Number],
  ['BIOSTATION_OCR_POOL_SIZE', 'ocrPoolSize', Number],
  ['BIOSTATION_UI_DIR', 'uiDir', (v) => path.resolve(v)],
  ['BIOSTATION_DEMO_APP', 'createDemoApplication', (v) => v !== '0' && v !== 'false'],
  ['BIOSTATION_ENGINES', 'engines', parseEngines],
  ['BIOSTATION_SYNC_PEERS', 'syncPeers', parseJson('BIOSTATION_SYNC_PEERS')],
  ['BIOSTATION_SYNC_INTERVAL_S', 'syncIntervalSeconds', Number],
  ['BIOSTATION_SYNC_TOMBSTONE_DAYS', 'syncTombstoneDays', Number],
  ['BIOSTATION_REQUEST_TIMEOUT_MS', 'requestTimeoutMs', Number],
  ['BIOSTATION_HEADERS_TIMEOUT_MS', 'headersTimeoutMs', Number],
  ['BIOSTATION_KEEP_ALIVE_TIMEOUT_MS', 'keepAliveTimeoutMs', Number],
  ['BIOSTATION_TLS', 'tls', String],
  ['BIOSTATION_TLS_CERT', 'tlsCertFile', (v) => path.resolve(v)],
  ['BIOSTATION_TLS_KEY', 'tlsKeyFile', (v) => path.resolve(v)],
  ['BIOSTATION_MASTER_KEY', 'masterKey', String],
  ['BIOSTATION_MASTER_KEY_FILE', 'masterKeyFile', (v) => path.resolve(v)],
  ['BIOSTATION_AUDIT_EXT_IDS', 'auditExtIds', String],
];

/** A JSON value from an environment variable. */
function parseJson(name: string): (raw: string) => unknown {
  return (raw) => {
    try {
      return JSON.parse(raw);
    } catch {
      throw new ConfigError(`${name} must be JSON, e.g. [{"name":"hq","url":"http://10.0.0.7:8080","key":"K","secret":"S","app":"demo"}]`);
    }
  };
}

/** "face,finger,ocr" (any subset, or "none") -> which engines load. */
function parseEngines(raw: string): unknown {
  const names = raw.split(',').map((s) => s.trim()).filter((s) => s && s !== 'none');
  const unknown = names.filter((n) => !['face', 'finger', 'ocr'].includes(n));
  if (unknown.length) throw new ConfigError(`BIOSTATION_ENGINES: unknown engine ${unknown.join(', ')} (use face, finger, ocr or none)`);
  return { face: names.includes('face'), finger: names.includes('finger'), ocr: names.includes('ocr') };
}

/**
 * Builds the validated configuration.
 * @throws ConfigError naming the offending key and why, for an unreadable file or an invalid value.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<StationConfig> = {},
  cwd = process.cwd(),
): StationConfig {
  let merged: Record<string, unknown> = { ...defaultConfig(cwd) };
  const file = env.BIOSTATION_CONFIG;
  if (file) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      throw new ConfigError(`cannot read configuration file ${file}: ${(e as Error).message}`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new ConfigError(`configuration file ${file} must hold a JSON object`);
    }
    merged = { ...merged, ...parsed };
  }
  for (const [name, key, parse] of ENV_KEYS) {
    const raw = env[name];
    if (raw !== undefined && raw !== '') merged[key] = parse(raw);
  }
  merged = { ...merged, ...overrides };
  if (merged.store === 'postgres' && !merged.databaseUrl) throw new ConfigError('invalid configuration: /databaseUrl: required with store "postgres" (BIOSTATION_DATABASE_URL)');
  if (!Value.Check(StationConfigSchema, merged)) {
    const problems = [...Value.Errors(StationConfigSchema, merged)]
      .slice(0, 5)
      .map((e) => `${e.path || '/'}: ${e.message}${e.path.startsWith('/syncPeers') ? '' : ` (got ${JSON.stringify(e.value)})`}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return merged as StationConfig;
}
