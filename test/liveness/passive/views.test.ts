/**
 * The network's views (test-time augmentation, tuning.views): the engine averages the views' raw
 * logits before the softmax, so each log-ratio of its outputs (log real/spoof2d, log real/spoof3d) is
 * the mean of the single views' log-ratios; and the second view (box shifted down by 8 % of its
 * height) is a different crop, not the first one again.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type OnnxFaceEngine } from '../../../src/face/index.js';
import { createPassiveLivenessEngine } from '../../../src/liveness/passive/index.js';
import { DEFAULT_LIVENESS_TUNING } from '../../../src/liveness/passive/tuning.js';
import type { CnnScores } from '../../../src/liveness/passive/engine.js';
import { livenessModelPath } from '../../../models/liveness.js';
import { MODELS_BUILD_DIR } from '../../../models/convert.js';
import { HAVE_DATA, SPOOF_DIR } from './datasets.js';

const MODEL = livenessModelPath(MODELS_BUILD_DIR);
if (!MODEL) console.warn('[liveness tests] the liveness network is not built (`npm run models`): view tests skipped');

describe.skipIf(!HAVE_DATA || !MODEL)('passive liveness network views', () => {
  let face: OnnxFaceEngine;
  beforeAll(async () => {
    face = await createFaceEngine({ intraOpNumThreads: 1 });
  });
  const ratios = (c: CnnScores): number[] => [Math.log(c.real / c.spoof2d), Math.log(c.real / c.spoof3d)];

  it('the default is two views: the box as found and shifted down by 8 % of its height', () => {
    expect(DEFAULT_LIVENESS_TUNING.views).toEqual([
      { dx: 0, dy: 0 },
      { dx: 0, dy: 0.08 },
    ]);
  });

  it('averages the views\' logits (log-ratios are the mean of the single views\')', async () => {
    for (const f of ['image_T1.jpg', 'image_F1.jpg']) {
      const img = await face.decode(new Uint8Array(readFileSync(path.join(SPOOF_DIR, f))));
      const box = (await face.detect(img))[0].box;
      // a smaller box than the detector's, so that the 2.7x crop has room to move inside the image
      const small = { x: box.x + box.width * 0.25, y: box.y + box.height * 0.25, width: box.width * 0.5, height: box.height * 0.5 };
      const run = async (views: Array<{ dx: number; dy: number }>) => (await (await createPassiveLivenessEngine({ tuning: { views } })).measure(img, small, false)).cnn!;
      const a = await run([{ dx: 0, dy: 0 }]);
      const b = await run([{ dx: 0, dy: 0.08 }]);
      const both = await run([
        { dx: 0, dy: 0 },
        { dx: 0, dy: 0.08 },
      ]);
      expect(ratios(a)[0]).not.toBeCloseTo(ratios(b)[0], 3); // another crop
      ratios(both).forEach((r, k) => expect(r).toBeCloseTo((ratios(a)[k] + ratios(b)[k]) / 2, 3));
    }
  }, 60_000);

  it('a view whose crop cannot move (capped at the image) gives the single view\'s scores', async () => {
    const img = await face.decode(new Uint8Array(readFileSync(path.join(SPOOF_DIR, 'image_T1.jpg'))));
    // the whole image as the box: every shifted crop is shifted back to the same pixels
    const box = { x: 0, y: 0, width: img.width - 1, height: img.height - 1 };
    const one = (await (await createPassiveLivenessEngine({ tuning: { views: [{ dx: 0, dy: 0 }] } })).measure(img, box, false)).cnn!;
    const two = (await (await createPassiveLivenessEngine()).measure(img, box, false)).cnn!;
    expect(two.real).toBeCloseTo(one.real, 6);
    expect(two.spoof2d).toBeCloseTo(one.spoof2d, 6);
  }, 60_000);
});
