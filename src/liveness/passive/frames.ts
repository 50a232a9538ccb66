/**
 * Liveness frames (issue #20, documented extension `livenessFrames`): extra frames of the SAME capture as
 * a request's main image, taken within ~1-2 s of it, judged together with it by the mean log-odds rule
 * (`session.ts` 'mean'). Used only by the passive check; never stored, never compared for matching.
 *
 * Why: on real print attacks (NUAA, `npm run bench:liveness` section 5) judging K consecutive frames of
 * one capture by their mean log-odds is much better than one frame (BPCER / APCER at 0.5: K=1 14.8 /
 * 11.2 %, K=3 14.7 / 1.7 %, K=5 5.6 / 0.0 %). The mean lets one image's evidence carry another's, so it
 * is trusted only when the frames are known to be one capture of one person: `frameInconsistency`
 * (same person by the face engine's similarity, face box at nearly the same place and scale) is checked
 * first, and a request that fails it is refused (LIVENESS_FRAMES_INCONSISTENT), never judged.
 *
 * Quality: the main image must pass the passive check's quality gates as without frames
 * (FACE_QUALITY_TOO_LOW); a frame that fails them is dropped from the mean and reported as dropped.
 */
import type { FaceBox } from './crop.js';
import type { LivenessVerdict, PassiveLivenessGate } from './gate.js';
import { sessionDecision } from './session.js';

/** Most frames a request may carry beside one main image (the request schema holds the same figure). */
export const MAX_LIVENESS_FRAMES = 4;

/**
 * How far a frame's face box may be from the main image's and still count as the same capture: the
 * centres at most `maxCentreShift` of the main box's width apart (source pixels), the widths' ratio
 * within `minScale..maxScale`. A person standing at a kiosk moves the face by a few percent in 1-2 s;
 * these bounds are loose on purpose (set by hand, not fitted): they stop another photo or another
 * framing, the similarity bound stops another person.
 */
export const FRAME_BOX_BOUNDS = { maxCentreShift: 0.3, minScale: 0.8, maxScale: 1.25 } as const;

/** One frame's face as the face engine found it: its box (source px) and its similarity to the main image's face. */
export interface FrameFace {
  box: FaceBox;
  /** Face engine similarity of the frame's template to the main image's (engine units, higher = more alike). */
  similarity: number;
}

/**
 * @param main the main image's face box (source px); @param frame the frame's face; @param similarityThreshold
 * the station's 1:1 verify threshold for this application (engine units).
 * @returns why the frame is not the same capture of the same person ('another person', 'face moved',
 * 'face scale changed'), or null when it is.
 */
export function frameInconsistency(main: FaceBox, frame: FrameFace, similarityThreshold: number): string | null {
  if (!(frame.similarity >= similarityThreshold)) return `another person (similarity ${frame.similarity.toFixed(3)} < ${similarityThreshold})`;
  const cx = (b: FaceBox) => b.x + b.width / 2;
  const cy = (b: FaceBox) => b.y + b.height / 2;
  const shift = Math.hypot(cx(frame.box) - cx(main), cy(frame.box) - cy(main)) / main.width;
  if (shift > FRAME_BOX_BOUNDS.maxCentreShift) return `face moved (${(shift * 100).toFixed(0)} % of the face width > ${FRAME_BOX_BOUNDS.maxCentreShift * 100} %)`;
  const scale = frame.box.width / main.width;
  if (scale < FRAME_BOX_BOUNDS.minScale || scale > FRAME_BOX_BOUNDS.maxScale) {
    return `face scale changed (x${scale.toFixed(2)}, allowed ${FRAME_BOX_BOUNDS.minScale}..${FRAME_BOX_BOUNDS.maxScale})`;
  }
  return null;
}

/** What `liveness.frames` tells of a session (documented extension). */
export interface FramesNote {
  /** The decision rule: the mean of log(P / (1 - P)) over the main image and its judged frames, against logit(threshold). */
  rule: 'mean-log-odds';
  /** The main image's own probability (6 decimals). */
  imageScore: number;
  /** Each frame in request order: its probability, or null when the quality gates dropped it. */
  scores: Array<number | null>;
  /** Frames dropped from the mean by the quality gates, with the gates that failed. */
  dropped: Array<{ index: number; failures: string[] }>;
  /** Images in the mean (the main image plus the judged frames). */
  used: number;
}

/** A session's verdict: `score` is the session's probability (sigmoid of the mean log-odds). */
export type SessionVerdict = LivenessVerdict & { frames: FramesNote };

/**
 * Judges a main image with its frames (found consistent by the caller: before, or inside `frames`
 * when it is a function) and counts one check.
 * @param main / frames: image bytes with the face box the face engine extracted (source px). `frames` may
 * be a function giving them: it is called only once the main image has passed the quality gates, so a
 * main image that cannot be judged costs no frame extraction (the caller's consistency check runs there).
 * @param threshold the application's liveness threshold (undefined: the engine's default).
 * @throws BiostationError FACE_QUALITY_TOO_LOW (the main image fails the gates), LIVENESS_CHECK_FAILED
 * (details.liveness: the session verdict), ENGINE_UNAVAILABLE, decode errors.
 */
export async function requireSession(
  gate: PassiveLivenessGate,
  main: { image: Uint8Array; box: FaceBox },
  framesOf: Array<{ image: Uint8Array; box: FaceBox }> | (() => Promise<Array<{ image: Uint8Array; box: FaceBox }>>),
  threshold?: number,
): Promise<SessionVerdict> {
  const first = await gate.judge(main.image, main.box, threshold);
  if (!first.judged) gate.refuseUnusable(first);
  const frames = typeof framesOf === 'function' ? await framesOf() : framesOf;
  const probabilities = [first.probability];
  const scores: Array<number | null> = [];
  const dropped: FramesNote['dropped'] = [];
  for (const [index, frame] of frames.entries()) {
    const judged = await gate.judge(frame.image, frame.box, threshold);
    if (judged.judged) {
      probabilities.push(judged.probability);
      scores.push(judged.verdict.score);
    } else {
      scores.push(null);
      dropped.push({ index, failures: judged.failures });
    }
  }
  const decision = sessionDecision(probabilities, first.verdict.threshold, 'mean');
  const verdict: SessionVerdict = {
    ...first.verdict,
    score: Math.round(decision.probability * 1e6) / 1e6,
    frames: { rule: 'mean-log-odds', imageScore: first.verdict.score, scores, dropped, used: probabilities.length },
  };
  return gate.settle(verdict, decision.live);
}
