/**
 * face_liveness.probability from the passive (single-image) detector of src/liveness/passive
 * (engineer E's engine), through a narrow interface so the check can run without it.
 */
import sharp from 'sharp';
import type { FaceObservation } from './face-checks.js';

/** Passive face liveness of one frame: probability 0..1 (>= 0.5 live), or null when the frame cannot be judged. */
export interface PassiveFaceLiveness {
  probability(jpeg: Uint8Array, face: FaceObservation['box']): Promise<number | null>;
}

/** What this adapter needs of src/liveness/passive's PassiveLivenessEngine. */
export interface PassiveEngineLike {
  /** False when the network file is not built: the signals-only score passes real attacks, so it is not used here. */
  readonly hasNetwork?: boolean;
  check(img: { width: number; height: number; data: Uint8Array }, box: FaceObservation['box']): Promise<{ probability: number; threshold: number }>;
}

/**
 * Maps the engine's fused probability onto the spec's scale, where 0.5 is the decision point: the
 * engine's own threshold t goes to 0.5, [0, t] and [t, 1] are stretched linearly.
 */
export function toSpecScale(p: number, t: number): number {
  if (t <= 0 || t >= 1) return p;
  return p < t ? (0.5 * p) / t : 0.5 + (0.5 * (p - t)) / (1 - t);
}

/**
 * Adapter over a (lazily loaded) passive engine. A face the engine cannot judge (quality gates) gives
 * null, and so does an engine without its network (its signals-only score called every real attack we
 * have live, src/liveness/passive/README.md): face_liveness is then the reflection evidence.
 */
export function passiveFromEngine(engine: () => Promise<PassiveEngineLike>): PassiveFaceLiveness {
  return {
    async probability(jpeg, face) {
      const e = await engine();
      if (e.hasNetwork === false) return null;
      const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      try {
        const r = await e.check({ width: info.width, height: info.height, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) }, face);
        return toSpecScale(r.probability, r.threshold);
      } catch (err) {
        if ((err as { code?: string }).code === 'LIVENESS_QUALITY_TOO_LOW') return null;
        throw err;
      }
    },
  };
}
