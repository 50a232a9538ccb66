import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuditLog } from '../audit/audit-log.js';
import type { ApplicationService } from '../auth/applications.js';
import type { StationAdmin } from '../auth/station-admin.js';
import type { TokenService } from '../auth/tokens.js';
import type { FaceEngine } from '../face/engine.js';
import type { FaceService } from '../services/face.js';
import type { FingerEngine } from '../finger/engine.js';
import type { FingerService } from '../services/finger.js';
import type { LivenessService } from '../liveness/service.js';
import type { CnhReader } from '../ocr/engine.js';
import type { StationConfig } from '../runtime/config.js';
import type { SyncService } from '../sync/service.js';
import type { SyncPeerRegistry } from '../sync/peer-registry.js';
import type { EngineSlot } from '../runtime/engine-slot.js';
import type { TenantStoreProvider } from '../store/types.js';

/** The onRequest hook of protected routes (see auth.ts). */
export type Authenticate = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** Everything the routes call. Built once by src/station.ts; tests may build it with fakes. */
export interface StationServices {
  config: StationConfig;
  applications: ApplicationService;
  tokens: TokenService;
  stores: TenantStoreProvider;
  face: FaceService;
  finger: FingerService;
  liveness: LivenessService;
  sync: SyncService;
  engines: {
    face: EngineSlot<FaceEngine>;
    finger: EngineSlot<FingerEngine>;
    ocr: EngineSlot<CnhReader>;
  };
  /** The audit trail of biometric operations (src/audit); absent in tests that build services by hand. */
  audit?: AuditLog;
  /** The station-admin credential (src/auth/station-admin.ts) guarding /api/v1/admin; absent: no admin API. */
  stationAdmin?: StationAdmin;
  /** Sync peers: the configuration's and those added from the Admin screen (src/sync/peer-registry.ts); absent: config.syncPeers only, none can be added. */
  syncPeers?: SyncPeerRegistry;
}
