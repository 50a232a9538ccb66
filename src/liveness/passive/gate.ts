/**
 * The passive liveness check as the face service runs it on every image of a request with
 * `doLivenessCheck: true`: decode the image the way the face engine does (same pixels, same
 * working scale), take the face box the engine's extraction found, and hold the engine's fused
 * probability against the threshold (the application's own, else the engine's default).
 *
 * Outcomes: a verdict (live), BiostationError LIVENESS_CHECK_FAILED (the spec's 1013 body; details
 * carry the score and threshold) or FACE_QUALITY_TOO_LOW (the face cannot be judged: too small,
 * blurred, badly exposed; details.failures name the gates). Each outcome is counted
 * (`biostation_liveness_checks_total{outcome}`). Without the network file the check is refused
 * (ENGINE_UNAVAILABLE): the engine's signals-only mode is kept for measurement, not for decisions.
 */
import client from 'prom-client';
import { decodeImage } from '../../face/image.js';
import { BiostationError } from '../../runtime/errors.js';
import { PassiveLivenessQualityError, type ContributionName, type PassiveLivenessEngine } from './engine.js';
import type { FaceBox } from './crop.js';

/** What a response tells of one image's check (documented extension). */
export interface LivenessVerdict {
  /** Fused probability that the face is live, 0..1 (6 decimals). */
  score: number;
  threshold: number;
  /** 'cnn+signals', or 'signals' when the network file is absent. */
  mode: 'cnn+signals' | 'signals';
  /** The inputs that weighed most against liveness (negative log-odds shares), worst first. */
  evidence: ContributionName[];
}

export type LivenessOutcome = 'live' | 'attack' | 'unusable';

export class PassiveLivenessGate {
  /** Checks by outcome; register it in the station's metrics registry. */
  readonly counter = new client.Counter({
    name: 'biostation_liveness_checks_total',
    help: 'Passive liveness checks of face images by outcome (live, attack = 1013, unusable = quality gate)',
    labelNames: ['outcome'],
    registers: [],
  });

  constructor(private readonly engine: () => Promise<PassiveLivenessEngine>) {}

  /**
   * @param image the request's image bytes; @param box the face box the face engine extracted (source px).
   * @param threshold the application's threshold (undefined: the engine's default).
   * @throws BiostationError LIVENESS_CHECK_FAILED, FACE_QUALITY_TOO_LOW, ENGINE_UNAVAILABLE (no network file),
   * and decode errors (INVALID_IMAGE...).
   */
  async require(image: Uint8Array, box: FaceBox, threshold?: number): Promise<LivenessVerdict> {
    const judged = await this.judge(image, box, threshold);
    if (!judged.judged) this.refuseUnusable(judged);
    return this.settle(judged.verdict, judged.live);
  }

  /** Counts and refuses an image the quality gates could not judge. @throws BiostationError FACE_QUALITY_TOO_LOW */
  refuseUnusable(judged: Extract<JudgedImage, { judged: false }>): never {
    this.counter.inc({ outcome: 'unusable' });
    throw new BiostationError('FACE_QUALITY_TOO_LOW', `${judged.message} (liveness)`, { failures: judged.failures, liveness: true });
  }

  /** Counts a decided check and returns its verdict. @throws BiostationError LIVENESS_CHECK_FAILED (details.liveness: the verdict) when not live */
  settle<V extends LivenessVerdict>(verdict: V, live: boolean): V {
    if (!live) {
      this.counter.inc({ outcome: 'attack' });
      throw new BiostationError('LIVENESS_CHECK_FAILED', undefined, { liveness: verdict });
    }
    this.counter.inc({ outcome: 'live' });
    return verdict;
  }

  /**
   * One image's check without a decision taken for the request and without counting: the verdict and
   * whether it passes alone, or the quality gates' refusal. Used by `require` and by the session check
   * (`frames.ts`). @throws ENGINE_UNAVAILABLE (no network file), decode errors (INVALID_IMAGE...).
   */
  async judge(image: Uint8Array, box: FaceBox, threshold?: number): Promise<JudgedImage> {
    const engine = await this.engine();
    // The signals-only fusion passes every real attack we have (image_F1 0.999, image_F2 0.943, Doubango's
    // spoof 0.863 against 0.1015; README "Without the network file"): answering with it would pretend.
    if (!engine.hasNetwork) throw new BiostationError('ENGINE_UNAVAILABLE', 'The passive liveness network is not installed on this station (npm run models); the image signals alone do not stop real attacks');
    const img = await decodeImage(image);
    const s = img.scale;
    const scaled = { x: box.x * s, y: box.y * s, width: box.width * s, height: box.height * s };
    let result;
    try {
      result = await engine.check(img, scaled, threshold ?? engine.defaultThreshold);
    } catch (e) {
      if (!(e instanceof PassiveLivenessQualityError)) throw e;
      return { judged: false, message: e.message, failures: e.failures };
    }
    const evidence = (Object.entries(result.contributions) as Array<[ContributionName, number]>)
      .filter(([, c]) => c < -0.5)
      .sort((a, b) => a[1] - b[1])
      .slice(0, 3)
      .map(([k]) => k);
    const verdict: LivenessVerdict = { score: Math.round(result.probability * 1e6) / 1e6, threshold: result.threshold, mode: result.mode, evidence };
    return { judged: true, verdict, live: result.live, probability: result.probability };
  }
}

/** One image judged by the passive check, or refused by its quality gates. */
export type JudgedImage =
  | { judged: true; verdict: LivenessVerdict; live: boolean; /** unrounded P(live) */ probability: number }
  | { judged: false; message: string; failures: PassiveLivenessQualityError['failures'] };
