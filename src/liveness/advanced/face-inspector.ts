/**
 * FaceInspector over the station's FaceEngine (the engine's public contract only: `extract`).
 * What it can tell: no face (NO_FACE), several faces of similar size (the engine's enroll-mode
 * MULTIPLE_FACES), and the dominant face's box, yaw and pitch. What it cannot: occlusion (the
 * engine has no occlusion model, so FACE_IS_OCCLUDED never fires through this adapter), and the
 * boxes of the other faces.
 */
import type { FaceEngine, FaceExtraction } from '../../face/engine.js';
import { LivenessError } from '../service.js';
import type { FaceInspection, FaceInspector, FaceObservation } from './face-checks.js';

const observation = (e: FaceExtraction): FaceObservation => ({
  box: e.box,
  score: e.quality.detectionScore,
  yawDeg: e.quality.yawDeg,
  pitchDeg: e.quality.pitchDeg,
});

export class EngineFaceInspector implements FaceInspector {
  constructor(private readonly engine: () => Promise<FaceEngine>) {}

  async inspect(jpeg: Uint8Array, size: { width: number; height: number }): Promise<FaceInspection> {
    const engine = await this.engine();
    const result = (faces: FaceObservation[]): FaceInspection => ({ ...size, faces });
    try {
      return result([observation(await engine.extract(jpeg, 'enroll'))]);
    } catch (e) {
      // The engine's typed errors (FaceError; BiostationError before src/services landed) carry a stable code.
      const code = (e as { code?: unknown }).code;
      if (code === 'NO_FACE') return result([]);
      if (code === 'IMAGE_TOO_SMALL') throw new LivenessError(400, 'Image too small to be processed', 'IMAGE_TOO_SMALL');
      if (code === 'MULTIPLE_FACES') {
        // The engine names the count, not the boxes: the second face is reported as large and confident.
        const main = observation(await engine.extract(jpeg, 'probe'));
        return result([main, { ...main, score: 1 }]);
      }
      if (code === 'FACE_QUALITY_TOO_LOW') return result([observation(await engine.extract(jpeg, 'probe'))]);
      throw e;
    }
  }
}
