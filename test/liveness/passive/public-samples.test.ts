/**
 * The default passive liveness engine on public samples that are not in the repository (their
 * licences do not allow it, see bench/liveness/generalise.ts PUBLIC_SAMPLES): read from
 * BIOSTATION_LIVENESS_PUBLIC (default .cache/liveness-public), skipped with a message when absent.
 * DoubangoTelecom/FaceLivenessDetection-SDK@607afe9 assets/images/{genuine,spoof}.jpg saved as
 * doubango-<name>.jpg; NUAA Photograph Imposter crops in nuaa/{client,imposter}/ (README, "Real print
 * attacks: NUAA"); real screen replays in replay/<source>/{live,attack}/ (bench/liveness/public-replay.sh,
 * README "Real screen replays").
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type OnnxFaceEngine } from '../../../src/face/index.js';
import { createPassiveLivenessEngine, type PassiveLivenessEngine } from '../../../src/liveness/passive/index.js';
import { livenessModelPath } from '../../../models/liveness.js';
import { MODELS_BUILD_DIR } from '../../../models/convert.js';

const DIR = path.resolve(process.env.BIOSTATION_LIVENESS_PUBLIC ?? '.cache/liveness-public');
const HAVE = ['doubango-genuine.jpg', 'doubango-spoof.jpg'].every((f) => existsSync(path.join(DIR, f)));
const MODEL = livenessModelPath(MODELS_BUILD_DIR);
if (!HAVE) console.warn(`[liveness tests] public samples not found in ${DIR} (set BIOSTATION_LIVENESS_PUBLIC; see this file's header): skipped`);
if (!MODEL) console.warn('[liveness tests] the liveness network is not built (`npm run models`): public-sample tests skipped');

describe.skipIf(!HAVE || !MODEL)('passive liveness on public samples', () => {
  let face: OnnxFaceEngine;
  let engine: PassiveLivenessEngine;
  beforeAll(async () => {
    face = await createFaceEngine({ intraOpNumThreads: 1 });
    engine = await createPassiveLivenessEngine({ intraOpNumThreads: 1 });
  });
  const check = async (name: string) => {
    const img = await face.decode(new Uint8Array(readFileSync(path.join(DIR, name))));
    const [det] = await face.detect(img);
    expect(det).toBeDefined();
    return engine.check(img, det.box);
  };

  it('a genuine capture passes', async () => {
    expect(engine.hasNetwork).toBe(true);
    expect((await check('doubango-genuine.jpg')).live).toBe(true);
  });

  // Known miss (README): a borderless phone recapture of a screen; the network gives it P(real) 0.996.
  // Marked as expected to fail: when a change catches it, this test fails and must become a plain `it`.
  it.fails('refuses a borderless screen recapture (known miss)', async () => {
    expect((await check('doubango-spoof.jpg')).live).toBe(false);
  });
});

const NUAA = path.join(DIR, 'nuaa');
const HAVE_NUAA = existsSync(path.join(NUAA, 'client')) && existsSync(path.join(NUAA, 'imposter'));
if (!HAVE_NUAA) console.warn(`[liveness tests] NUAA crops not found in ${NUAA} (README "Real print attacks: NUAA"): skipped`);

describe.skipIf(!HAVE_NUAA || !MODEL)('passive liveness on real print attacks (NUAA)', () => {
  // Regression guard, loose on purpose: measured 2026-11-24 on 128 / 188 crops: BPCER 17.4 %, APCER 12.8 % (one view); 14.8 %, 11.2 % (two views).
  it('refuses most printed photos and passes most live clients', async () => {
    const face = await createFaceEngine({ intraOpNumThreads: 1 });
    const engine = await createPassiveLivenessEngine({ intraOpNumThreads: 1 });
    const rates: Record<string, { judged: number; live: number }> = {};
    for (const k of ['client', 'imposter']) {
      rates[k] = { judged: 0, live: 0 };
      for (const f of readdirSync(path.join(NUAA, k)).filter((x) => x.endsWith('.jpg'))) {
        const img = await face.decode(new Uint8Array(readFileSync(path.join(NUAA, k, f))));
        const [det] = await face.detect(img);
        if (!det) continue;
        try {
          const r = await engine.check(img, det.box);
          rates[k].judged++;
          if (r.live) rates[k].live++;
        } catch (e) {
          if ((e as { code?: string }).code !== 'LIVENESS_QUALITY_TOO_LOW') throw e;
        }
      }
    }
    expect(rates.client.judged).toBeGreaterThan(20);
    expect(rates.imposter.judged).toBeGreaterThan(20);
    expect(1 - rates.client.live / rates.client.judged).toBeLessThan(0.25); // BPCER
    expect(rates.imposter.live / rates.imposter.judged).toBeLessThan(0.2); // APCER
  }, 120_000);
});

const REPLAY = path.join(DIR, 'replay');
/** Full-frame video sources of bench/liveness/public-replay.sh with both classes from one camera. */
const REPLAY_VIDEOS = ['apfol', 'lestari15', 'tranvanluyt', 'wolf-huo'];
const HAVE_REPLAY = REPLAY_VIDEOS.every((s) => existsSync(path.join(REPLAY, s, 'live')) && existsSync(path.join(REPLAY, s, 'attack')));
if (!HAVE_REPLAY) console.warn(`[liveness tests] screen replays not found in ${REPLAY} (bench/liveness/public-replay.sh): skipped`);

describe.skipIf(!HAVE_REPLAY || !MODEL)('passive liveness on real screen replays (video frames, README "Real screen replays")', () => {
  const rates: Record<'live' | 'attack', { judged: number; live: number; gated: number }> = { live: { judged: 0, live: 0, gated: 0 }, attack: { judged: 0, live: 0, gated: 0 } };
  beforeAll(async () => {
    const face = await createFaceEngine({ intraOpNumThreads: 1 });
    const engine = await createPassiveLivenessEngine({ intraOpNumThreads: 1 });
    for (const src of REPLAY_VIDEOS) {
      for (const k of ['live', 'attack'] as const) {
        for (const f of readdirSync(path.join(REPLAY, src, k)).filter((x) => x.endsWith('.jpg'))) {
          const img = await face.decode(new Uint8Array(readFileSync(path.join(REPLAY, src, k, f))));
          const [det] = await face.detect(img);
          if (!det) continue;
          try {
            const r = await engine.check(img, det.box);
            rates[k].judged++;
            if (r.live) rates[k].live++;
          } catch (e) {
            if ((e as { code?: string }).code !== 'LIVENESS_QUALITY_TOO_LOW') throw e;
            rates[k].gated++;
          }
        }
      }
    }
  }, 180_000);

  // Regression guard: measured 2026-11-25 on 116 judged attack frames of four cameras: APCER 0 %.
  it('refuses the phone and laptop screens held to the camera', () => {
    expect(rates.attack.judged).toBeGreaterThan(80);
    expect(rates.attack.live / rates.attack.judged).toBeLessThan(0.1);
  });

  it('judges enough live frames of the same cameras to say anything', () => {
    expect(rates.live.judged).toBeGreaterThan(60);
  });

  // Known failure (README "Real screen replays"): the same cameras' live frames: 85 judged (32 more
  // refused as too dark), BPCER 67.1 %: the network calls a backlit laptop webcam's and a phone's
  // live frames attacks. When a change fixes it, this fails and must become a plain `it`.
  it.fails('passes most live frames of the same cameras (known failure)', () => {
    expect(1 - rates.live.live / rates.live.judged).toBeLessThan(0.25);
  });
});
