/**
 * Passive (single-image) liveness: is the face in front of the camera a live person or a
 * presentation attack (printed photo, screen replay, cut-out or mask)? Pure: pixels and a face box
 * in, a typed result (or a typed quality error) out; no HTTP, no storage, no configuration files.
 *
 * Steps: (1) quality gates (face size, focus, exposure): an unusable capture is a
 * PassiveLivenessQualityError, never a spoof verdict; (2) the network (models/liveness.ts,
 * MiniFASNet from faceplugin-face-recognition-js) on the Silent-Face crop of each view of
 * `tuning.views` (the face box as found, and shifted; test-time augmentation: the views' raw logits
 * are averaged before the softmax), when its file is present;
 * (3) the image signals of signals.ts; (4) logistic fusion of the network's log-odds and the
 * standardised signals (weights fitted on the tuning part of the bench set, see README.md):
 * probability = P(live), live = probability >= threshold.
 */
import type * as ort from 'onnxruntime-node';
import { Tensor } from 'onnxruntime-node';
import { resizePlanar, silentFaceRect, type FaceBox, type PixelRect, type RgbRaster } from './crop.js';
import { faceExposure, faceSample, measureSignals, SCALAR_SIGNALS, type FaceExposure, type SignalName, type Signals } from './signals.js';

export type { FaceBox, RgbRaster } from './crop.js';
export type { SignalName, Signals } from './signals.js';

/** Softmax of the network's three outputs. */
export interface CnnScores {
  real: number;
  /** 2-D attack (print, screen). */
  spoof2d: number;
  /** 3-D attack (mask). */
  spoof3d: number;
}

export interface PassiveLivenessResult {
  /** Fused probability that the face is live, 0..1. */
  probability: number;
  /** Threshold the probability was held against. */
  threshold: number;
  /** probability >= threshold. */
  live: boolean;
  /** The network's output, null when its file is absent (signals only). */
  cnn: CnnScores | null;
  /** Raw value of every image signal (signals.ts); null when the fusion in use does not weigh them. */
  signals: Signals | null;
  /**
   * Each input's share of the fused log-odds (negative = evidence of an attack): the network, every
   * scalar signal, and the LBP texture histograms summed as 'texture'.
   */
  contributions: Record<ContributionName, number>;
  /** Face exposure and focus as measured for the gates. */
  exposure: FaceExposure;
  /** "cnn+signals" or "signals" (no network file). */
  mode: 'cnn+signals' | 'signals';
}

/** Names under which the fused log-odds are broken down. */
export type ContributionName = 'cnn' | (typeof SCALAR_SIGNALS)[number] | 'texture';

export type LivenessQualityFailure = 'faceWidthPx' | 'sharpness' | 'underexposed' | 'overexposed';

/** The capture cannot be judged (too small, blurred, badly exposed): ask for another, do not call it an attack. */
export class PassiveLivenessQualityError extends Error {
  readonly code = 'LIVENESS_QUALITY_TOO_LOW' as const;
  constructor(
    readonly failures: LivenessQualityFailure[],
    readonly exposure: FaceExposure & { faceWidthPx: number },
  ) {
    super(`The face cannot be checked for liveness: ${failures.join(', ')}`);
    this.name = 'PassiveLivenessQualityError';
  }
}

export interface LivenessGates {
  /** Smallest face box width, source px. */
  minFaceWidthPx: number;
  /** Smallest Laplacian variance of the 64x64 face sample. */
  minSharpness: number;
  minMeanLuma: number;
  maxMeanLuma: number;
  /** Largest fraction of clipped (<= 5 or >= 250) face pixels. */
  maxClipped: number;
}

/**
 * The quality gates' verdict on one face: the gates it fails (empty = it can be judged).
 * @param exposure faceExposure() of the 64 x 64 face sample; @param faceWidthPx the face box width, source px.
 */
export function gateFailures(exposure: FaceExposure, faceWidthPx: number, g: LivenessGates): LivenessQualityFailure[] {
  const failures: LivenessQualityFailure[] = [];
  if (faceWidthPx < g.minFaceWidthPx) failures.push('faceWidthPx');
  if (exposure.sharpness < g.minSharpness) failures.push('sharpness');
  if (exposure.meanLuma < g.minMeanLuma) failures.push('underexposed');
  if (exposure.meanLuma > g.maxMeanLuma || exposure.clipped > g.maxClipped) failures.push('overexposed');
  return failures;
}

/** A logistic model over [cnn log-odds, signals...], each standardised by (x - mean) / std. */
export interface FusionModel {
  /** Inputs in order: 'cnn' then signal names; missing ones are left out of the sum. */
  inputs: Array<SignalName | 'cnn'>;
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

export interface PassiveLivenessTuning {
  gates: LivenessGates;
  /** Fusion used with the network. */
  fusion: FusionModel;
  /** Fusion used without it. */
  fusionNoCnn: FusionModel;
  /** Default threshold on the fused probability (per-application thresholds override it in the service). */
  threshold: number;
  /** Default threshold when the network file is absent (fusionNoCnn's scale). */
  thresholdNoCnn: number;
  /** Silent-Face crop scale around the face box. */
  cropScale: number;
  /**
   * The views the network is run on (test-time augmentation): each shifts the face box by
   * (dx * width, dy * height) before the Silent-Face crop; the raw logits of all views are averaged,
   * then softmaxed. The first view's crop also feeds the image signals. At least one view.
   */
  views: LivenessView[];
}

/** One network view: the face box shifted by fractions of its width (dx) and height (dy). */
export interface LivenessView {
  dx: number;
  dy: number;
}

const CROP = 128;
const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Network log-odds of "real", clamped to +-12. */
export const cnnLogit = (c: CnnScores): number => Math.max(-12, Math.min(12, Math.log((c.real + 1e-6) / (1 - c.real + 1e-6))));

export class PassiveLivenessEngine {
  constructor(
    private readonly session: ort.InferenceSession | null,
    readonly tuning: PassiveLivenessTuning,
  ) {}

  /** Whether the network is loaded (else the engine runs on image signals only). */
  get hasNetwork(): boolean {
    return this.session !== null;
  }

  /** The default threshold of the mode the engine runs in (with or without the network). */
  get defaultThreshold(): number {
    return this.session ? this.tuning.threshold : this.tuning.thresholdNoCnn;
  }

  /**
   * Checks one face.
   * @param img the decoded image (RGB); @param box the face box in its pixels (the face detector's).
   * @param threshold overrides tuning.threshold (per-application setting), 0..1.
   * @throws PassiveLivenessQualityError when the face is too small, blurred or badly exposed.
   */
  async check(img: RgbRaster, box: FaceBox, threshold = this.defaultThreshold): Promise<PassiveLivenessResult> {
    // The image signals are measured only when the fusion in use weighs them (never computed and dropped).
    const model = this.session ? this.tuning.fusion : this.tuning.fusionNoCnn;
    const m = await this.measure(img, box, model.inputs.some((n) => n !== 'cnn'));
    return this.decide(m.cnn, m.signals, m.exposure, threshold);
  }

  /**
   * Gates, network and (when `withSignals`) the image signals, without the fusion (the benchmark fits
   * the fusion on these). Without signals, `signals` is null.
   */
  async measure(img: RgbRaster, box: FaceBox, withSignals = true): Promise<{ cnn: CnnScores | null; signals: Signals | null; exposure: FaceExposure }> {
    const face = faceSample(img, box);
    const exposure = faceExposure(face);
    const failures = gateFailures(exposure, box.width, this.tuning.gates);
    if (failures.length > 0) throw new PassiveLivenessQualityError(failures, { ...exposure, faceWidthPx: box.width });

    const views = this.tuning.views.length > 0 ? this.tuning.views : [{ dx: 0, dy: 0 }];
    const viewRect = (v: LivenessView): PixelRect => silentFaceRect({ ...box, x: box.x + v.dx * box.width, y: box.y + v.dy * box.height }, img.width, img.height, this.tuning.cropScale);
    const rect = viewRect(views[0]);
    const bgr = resizePlanar(img, rect, CROP, 'bgr');
    let cnn: CnnScores | null = null;
    if (this.session) {
      // A view whose crop equals an earlier view's (no room to shift: the crop is capped at the image,
      // as on most close-up photos) gives the same logits: they are reused, not computed again.
      const z = [0, 0, 0];
      const byRect = new Map<string, Float32Array>();
      for (let k = 0; k < views.length; k++) {
        const r = k === 0 ? rect : viewRect(views[k]);
        const key = `${r.x0},${r.y0},${r.x1},${r.y1}`;
        let out = byRect.get(key);
        if (!out) {
          const input = k === 0 ? bgr : resizePlanar(img, r, CROP, 'bgr');
          out = (await this.session.run({ input: new Tensor('float32', input, [1, 3, CROP, CROP]) })).output.data as Float32Array;
          byRect.set(key, out);
        }
        for (let c = 0; c < 3; c++) z[c] += out[c] / views.length;
      }
      const mx = Math.max(z[0], z[1], z[2]);
      const e = [Math.exp(z[0] - mx), Math.exp(z[1] - mx), Math.exp(z[2] - mx)];
      const s = e[0] + e[1] + e[2];
      cnn = { real: e[0] / s, spoof2d: e[1] / s, spoof3d: e[2] / s };
    }
    if (!withSignals) return { cnn, signals: null, exposure };
    const plane = CROP * CROP;
    const ctx = new Float32Array(plane);
    for (let i = 0; i < plane; i++) ctx[i] = 0.114 * bgr[i] + 0.587 * bgr[plane + i] + 0.299 * bgr[2 * plane + i];
    const sx = CROP / (rect.x1 - rect.x0 + 1);
    const sy = CROP / (rect.y1 - rect.y0 + 1);
    const faceInCtx: PixelRect = {
      x0: Math.max(0, Math.floor((box.x - rect.x0) * sx)),
      y0: Math.max(0, Math.floor((box.y - rect.y0) * sy)),
      x1: Math.min(CROP - 1, Math.ceil((box.x + box.width - rect.x0) * sx)),
      y1: Math.min(CROP - 1, Math.ceil((box.y + box.height - rect.y0) * sy)),
    };
    return { cnn, signals: measureSignals(img, box, face, exposure, ctx, CROP, faceInCtx), exposure };
  }

  /** The fusion and the decision (see the module doc). */
  decide(cnn: CnnScores | null, signals: Signals | null, exposure: FaceExposure, threshold = this.defaultThreshold): PassiveLivenessResult {
    const model = cnn ? this.tuning.fusion : this.tuning.fusionNoCnn;
    const contributions = Object.fromEntries(['cnn', ...SCALAR_SIGNALS, 'texture'].map((k) => [k, 0])) as Record<ContributionName, number>;
    let z = model.bias;
    model.inputs.forEach((name, i) => {
      const x = name === 'cnn' ? (cnn ? cnnLogit(cnn) : null) : signals ? signals[name] : null;
      if (x === null || x === undefined) return;
      const c = (model.weights[i] * (x - model.mean[i])) / model.std[i];
      const key: ContributionName = name.startsWith('lbp') ? 'texture' : (name as ContributionName);
      contributions[key] += c;
      z += c;
    });
    for (const k of Object.keys(contributions) as ContributionName[]) contributions[k] = Math.round(contributions[k] * 1e4) / 1e4;
    const probability = sigmoid(z);
    return { probability, threshold, live: probability >= threshold, cnn, signals, contributions, exposure, mode: cnn ? 'cnn+signals' : 'signals' };
  }
}
