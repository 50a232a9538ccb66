import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { ApplicationService, type IssuedCredential } from './auth/applications.js';
import { StationAdmin } from './auth/station-admin.js';
import { TokenService } from './auth/tokens.js';
import type { FaceEngine } from './face/engine.js';
import { createFaceEngine, createPooledFaceEngine } from './face/index.js';
import { FaceService } from './services/face.js';
import { PassiveLivenessGate } from './liveness/passive/gate.js';
import { createPassiveLivenessEngine } from './liveness/passive/index.js';
import type { FingerEngine } from './finger/engine.js';
import { createFingerEngine, createPooledFingerEngine } from './finger/index.js';
import { FingerService } from './services/finger.js';
import type { StationServices } from './http/context.js';
import { buildServer } from './http/server.js';
import { createAdvancedLiveness, LIBRARY_PATH, LIVENESS_KEY_FILE, passiveFromEngine, type FaceInspector, type PassiveFaceLiveness } from './liveness/advanced/index.js';
import type { CnhReader } from './ocr/engine.js';
import { createCnhReader } from './ocr/index.js';
import type { StationConfig } from './runtime/config.js';
import { EngineSlot } from './runtime/engine-slot.js';
import { createLogger, type Logger } from './runtime/logger.js';
import { SyncService } from './sync/service.js';
import { engineTemplateCheck } from './sync/checks.js';
import { startSyncSchedule } from './sync/scheduler.js';
import { SyncPeerRegistry } from './sync/peer-registry.js';
import { keyringSealer } from './sync/peer-secrets.js';
import { openStore, type StoreSettings } from './store/index.js';
import { parseMasterKey } from './store/encryption/master-key.js';
import { AuditLog } from './audit/audit-log.js';

export interface Station {
  /** Base URL the API listens on, e.g. http://127.0.0.1:8080. */
  url: string;
  server: FastifyInstance;
  services: StationServices;
  /** Set on the first start of an empty data directory: the demo application's credential. */
  demoCredential?: IssuedCredential;
  /** Set only on the start that created it: the station-admin secret, to be shown once (only its hash is stored). */
  stationAdminSecret?: string;
  /** Stops accepting requests, finishes those in flight, closes engines and databases. */
  close(): Promise<void>;
}

export const DEMO_CREDENTIALS_FILE = 'demo-credentials.json';

/** Paths inside the data directory. */
export function stationPaths(dataDir: string) {
  return {
    signingKey: path.join(dataDir, 'station-key.jwk'),
    /** The advanced liveness key pair (ECDH P-256, JWK, 0600), beside the signing key. */
    livenessKey: path.join(dataDir, LIVENESS_KEY_FILE),
    demoCredentials: path.join(dataDir, DEMO_CREDENTIALS_FILE),
    masterKey: path.join(dataDir, 'master.key'),
    /** The station-admin credential's argon2id hash (src/auth/station-admin.ts), 0600. */
    stationAdmin: path.join(dataDir, 'station-admin.json'),
    /** Admin-added sync peers of stations older than the registry's list (imported once, then removed: src/sync/peer-registry.ts). */
    syncPeers: path.join(dataDir, 'sync-peers.json'),
  };
}

type StoreConfig = Pick<StationConfig, 'store' | 'dataDir' | 'databaseUrl'> & Partial<Pick<StationConfig, 'masterKey' | 'masterKeyFile'>>;

/** Templates are always encrypted at rest; the master key comes from the host or the key file (src/store/encryption). */
export const storeSettings = (config: StoreConfig): StoreSettings => ({
  kind: config.store,
  dataDir: config.dataDir,
  databaseUrl: config.databaseUrl,
  encryption: {
    file: config.masterKeyFile ?? stationPaths(config.dataDir).masterKey,
    provided: config.masterKey ? parseMasterKey(config.masterKey, 'BIOSTATION_MASTER_KEY') : undefined,
  },
});

/** Opens the station registry of applications (the CLI shares it with the running station). */
export async function openApplications(
  config: StoreConfig,
): Promise<{ applications: ApplicationService; close(): Promise<void> }> {
  const store = await openStore(storeSettings(config));
  return { applications: new ApplicationService(store.applications), close: () => store.close() };
}

/** What a caller may swap: the logger, and engine factories (tests inject fakes; Electron may share one). */
export interface StationOptions {
  logger?: Logger;
  faceEngine?: () => Promise<FaceEngine>;
  fingerEngine?: () => Promise<FingerEngine>;
  cnhReader?: () => Promise<CnhReader>;
  /** Passive liveness of the face operations (doLivenessCheck): a stand-in instead of src/liveness/passive's engine. */
  livenessGate?: PassiveLivenessGate;
  /** Advanced liveness: a face inspector instead of the face engine's, extra accepted library builds, a passive detector. */
  advancedLiveness?: { faces?: FaceInspector; extraBuilds?: string[]; passive?: PassiveFaceLiveness | null };
}

/**
 * Starts the station service: registry, signing key, per-application stores, engines (loaded in
 * the background; /ready tells when), the HTTP server. Used by `biostation serve`, the Electron
 * main process and the API tests.
 */
export async function startStation(config: StationConfig, options: StationOptions = {}): Promise<Station> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const paths = stationPaths(config.dataDir);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const store = await openStore(storeSettings(config));
  const applications = new ApplicationService(store.applications);
  const stores = store.tenants;
  const tokens = await TokenService.open(paths.signingKey, config.tokenTtlSeconds);

  let demoCredential: IssuedCredential | undefined;
  // Several API nodes may start together on an empty PostgreSQL database: one creates the demo application.
  await store.exclusive('first-start', async () => {
    if (config.createDemoApplication && (await applications.list()).length === 0) {
      demoCredential = await applications.create('demo');
      writeFileSync(paths.demoCredentials, `${JSON.stringify(demoCredential, null, 2)}\n`, { mode: 0o600 });
      chmodSync(paths.demoCredentials, 0o600);
    }
  });

  const engines = {
    face: new EngineSlot(
      'face',
      config.engines.face ? (options.faceEngine ?? (() => (config.faceWorkers > 0 ? createPooledFaceEngine(config.faceWorkers) : createFaceEngine()))) : undefined,
    ),
    finger: new EngineSlot(
      'finger',
      config.engines.finger
        ? (options.fingerEngine ?? (() => (config.fingerWorkers > 0 ? createPooledFingerEngine(config.fingerWorkers) : createFingerEngine())))
        : undefined,
    ),
    ocr: new EngineSlot(
      'ocr',
      config.engines.ocr ? (options.cnhReader ?? (() => createCnhReader({ poolSize: config.ocrPoolSize, maxQueue: config.ocrMaxQueue }))) : undefined,
    ),
  };
  for (const slot of Object.values(engines)) slot.start();
  // Passive liveness (doLivenessCheck): loaded in the background with the face engine. Without the network
  // file the check is refused (503 ENGINE_UNAVAILABLE) and the advanced check falls back to its reflection
  // evidence: the image signals alone do not stop real attacks (see src/liveness/passive/README.md).
  const passiveLiveness = new EngineSlot('liveness', config.engines.face ? () => createPassiveLivenessEngine() : undefined);
  passiveLiveness.start();

  const { admin: stationAdmin, createdSecret: stationAdminSecret } = await StationAdmin.open(paths.stationAdmin);

  const services: StationServices = {
    config,
    applications,
    tokens,
    stores,
    face: new FaceService(engines.face, stores, options.livenessGate ?? new PassiveLivenessGate(() => passiveLiveness.get())),
    finger: new FingerService(engines.finger, stores),
    liveness: createAdvancedLiveness({
      keyFile: paths.livenessKey,
      libraryFile: path.join(config.uiDir, LIBRARY_PATH),
      faceEngine: () => engines.face.get(),
      // The same passive engine as doLivenessCheck (one network in memory).
      passive: config.engines.face ? passiveFromEngine(() => passiveLiveness.get()) : null,
      ...options.advancedLiveness,
    }),
    sync: new SyncService(engineTemplateCheck(engines.face, engines.finger)),
    engines,
    stationAdmin,
    // Admin-added peers live in the station registry (every API node sees them), their secrets sealed
    // under their application's data key (src/sync/peer-secrets.ts); an older sync-peers.json is imported.
    syncPeers: new SyncPeerRegistry(store.syncPeers, config.syncPeers, {
      log: (o, msg) => logger.warn(o, msg),
      info: (o, msg) => logger.info(o, msg),
      sealer: store.keyring && keyringSealer(store.keyring, async (appKey) => (await store.applications.list()).find((a) => a.key === appKey)?.id),
      legacyFile: paths.syncPeers,
    }),
    audit: new AuditLog(store.audit, {
      extIds: config.auditExtIds,
      pseudonymKey: (applicationId) => store.keyring!.dataKey(applicationId),
      onError: (e) => logger.error({ err: e }, 'audit trail append failed'),
    }),
  };
  const server = await buildServer(services, logger);
  await server.listen({ host: config.host, port: config.port });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const syncSchedule = startSyncSchedule({ config, peers: (apps) => services.syncPeers!.all(apps), applications, stores, sync: services.sync, log: server.log });

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await syncSchedule.stop();
      await server.close();
      await Promise.all([services.face.close(), services.finger.close()]);
      const reader = await engines.ocr.settled();
      await reader?.close();
      const face = await engines.face.settled();
      await face?.close?.();
      const finger = await engines.finger.settled();
      await finger?.close?.();
      await services.audit?.close();
      await store.close();
    })());

  const scheme = 'setSecureContext' in server.server ? 'https' : 'http';
  return { url: `${scheme}://${host}:${port}`, server, services, demoCredential, stationAdminSecret, close };
}

