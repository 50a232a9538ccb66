/**
 * Advanced liveness entry point: the station's liveness key (beside the token signing key), the
 * challenge store, the known library builds and the face inspector, assembled into the service.
 */
import type { FaceEngine } from '../../face/engine.js';
import { ChallengeStore } from './challenge.js';
import { EngineFaceInspector } from './face-inspector.js';
import type { FaceInspector } from './face-checks.js';
import { LivenessKeyStore } from './keys.js';
import type { PassiveFaceLiveness } from './passive.js';
import { AdvancedLivenessService, FileKnownBuilds } from './service.js';

export { AdvancedLivenessService } from './service.js';
export { passiveFromEngine, type PassiveFaceLiveness } from './passive.js';
export { LivenessKeyStore } from './keys.js';
export type { FaceInspector } from './face-checks.js';

export { LIVENESS_KEY_FILE } from './keys.js';
export { registerLivenessCommands } from './cli.js';
export { LIBRARY_PATH, type ChallengeView } from './challenge.js';

export interface AdvancedLivenessOptions {
  /** JSON key file (mode 0600), created on first start. */
  keyFile: string;
  /** The built library the station serves; its SHA-256 is the build the integrity rule accepts. */
  libraryFile: string | null;
  /** Further accepted build hashes (hex), e.g. the previous release during a roll-out. */
  extraBuilds?: string[];
  faceEngine: () => Promise<FaceEngine>;
  /** Overrides the engine-backed inspector (tests). */
  faces?: FaceInspector;
  /** The passive detector (the station passes src/liveness/passive's engine slot); null or absent: none, face_liveness is the reflection evidence. */
  passive?: PassiveFaceLiveness | null;
  challengeTtlMs?: number;
}

export function createAdvancedLiveness(o: AdvancedLivenessOptions): AdvancedLivenessService {
  return new AdvancedLivenessService({
    keys: LivenessKeyStore.open(o.keyFile),
    challenges: new ChallengeStore({ ttlMs: o.challengeTtlMs }),
    builds: new FileKnownBuilds(o.libraryFile, o.extraBuilds),
    faces: o.faces ?? new EngineFaceInspector(o.faceEngine),
    passive: o.passive ?? undefined,
  });
}

