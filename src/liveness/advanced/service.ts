/**
 * The advanced liveness check (POST /api/v1/services/liveness/check):
 * parse -> decrypt -> nonce (single use, expires) -> metadata rules -> frames (face checks in the
 * spec's order, 400 on failure) -> scores (face_liveness from the passive detector, capture_liveness
 * from the injection signals). The decision table (which failure is a 400, which a 200 rejection)
 * is in docs/liveness-payload.md and in the route's OpenAPI description.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import sharp from 'sharp';
import { LivenessError, type AdvancedLivenessResult, type LivenessCheckContext, type LivenessService } from '../service.js';
import { challengeView, ChallengeStore, type ChallengeView } from './challenge.js';
import { metadataError, openEnvelope, parseEnvelope, decryptError, unpackPlaintext } from './envelope.js';
import { checkFace, type FaceInspector } from './face-checks.js';
import type { LivenessKeyStore } from './keys.js';
import { readMetadata } from './metadata.js';
import { ANALYSIS_HEIGHT, ANALYSIS_WIDTH, copiedFrameShare, faceConsistency, reflectionResponse, REFLECTION_LIMITS, type Raster, type ReflectionResult } from './reflection.js';
import { deviceRules, environmentRules, integrityRules, nonceFinding, timingRules, type Finding, type KnownBuilds, type RejectionReason } from './rules.js';

import type { PassiveFaceLiveness } from './passive.js';

export type { PassiveFaceLiveness } from './passive.js';

/** Builds the station knows: the SHA-256 of the library file it serves (re-read when the file changes) and any extra hashes. */
export class FileKnownBuilds implements KnownBuilds {
  private cached: { mtimeMs: number; hash: string } | undefined;
  constructor(
    private readonly file: string | null,
    private readonly extra: string[] = [],
  ) {}

  hashes(): Set<string> {
    const out = new Set(this.extra);
    if (this.file) {
      try {
        const { mtimeMs } = statSync(this.file);
        if (this.cached?.mtimeMs !== mtimeMs) this.cached = { mtimeMs, hash: createHash('sha256').update(readFileSync(this.file)).digest('hex') };
        out.add(this.cached.hash);
      } catch {
        // No built library: no build is known, every payload fails the integrity rule.
      }
    }
    return out;
  }
}

export interface AdvancedLivenessDeps {
  keys: LivenessKeyStore;
  challenges: ChallengeStore;
  builds: KnownBuilds;
  faces: FaceInspector;
  /** Passive detector (src/liveness/passive); when absent, or when it cannot judge the frame, face_liveness is the reflection evidence. */
  passive?: PassiveFaceLiveness;
  now?: () => number;
}

/** Everything the check measured, for logs and tests. */
export interface LivenessReport {
  result: AdvancedLivenessResult;
  findings: Finding[];
  reflection?: ReflectionResult;
  copiedShare?: number;
  /** Median luma correlation of the face region, key frame vs challenge frames. */
  faceConsistency?: number;
  faceSource: 'passive' | 'reflection' | 'none';
  /** Wall time of the stages, ms (decrypt covers parse, decrypt, metadata and rules; decode and face overlap, face is until both end). */
  timings?: { decryptMs: number; decodeMs: number; faceMs: number; signalsMs: number; passiveMs: number };
}

const round = (p: number) => Math.round(Math.min(1, Math.max(0, p)) * 10_000) / 10_000;

function verdict(face: number, findings: Finding[], captureBase: number): AdvancedLivenessResult {
  const capture = Math.min(captureBase, ...findings.map((f) => f.probability));
  const rejection = capture < 0.5 ? [...new Set(findings.filter((f) => f.probability < 0.5).map((f) => f.reason))] : [];
  return {
    success: true,
    data: {
      face_liveness: { probability: round(face) },
      capture_liveness: { probability: round(capture), score: round(Math.min(face, capture)), rejection },
    },
  };
}

/**
 * A frame scaled to the analysis raster. The JPEG header must give the size the metadata states
 * (checked before any pixel is decoded, so an oversized frame costs nothing).
 * @throws LivenessError 400 "Failed to read metadata" for a size mismatch or an undecodable frame.
 */
async function toRaster(jpeg: Buffer, expected: { width: number; height: number }): Promise<Raster> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(jpeg).metadata();
  } catch {
    throw metadataError();
  }
  if (meta.format !== 'jpeg' || meta.width !== expected.width || meta.height !== expected.height) throw metadataError();
  try {
    const { data } = await sharp(jpeg).resize(ANALYSIS_WIDTH, ANALYSIS_HEIGHT, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    return { width: ANALYSIS_WIDTH, height: ANALYSIS_HEIGHT, data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength) };
  } catch {
    throw metadataError();
  }
}

/** Probability the reflection rule allows, and its finding when it is below 0.5. */
function reflectionFindings(r: ReflectionResult): { probability: number; findings: Finding[] } {
  if (r.verdict === 'follows') return { probability: 0.6 + 0.39 * Math.min(1, (r.cosine - REFLECTION_LIMITS.followCosine) / (1 - REFLECTION_LIMITS.followCosine)), findings: [] };
  const detail = `reflection ${r.verdict}: cosine ${r.cosine.toFixed(2)} (shifted ${r.shiftedCosine.toFixed(2)}), amplitude ${r.amplitude.toFixed(4)}, ${r.coloursSeen} colours seen`;
  if (r.verdict === 'contradicts') return { probability: 0.1, findings: [{ reason: 'UNTRUSTED_CONTENT', rule: 'content.reflection-contradicts', probability: 0.1, detail }] };
  return { probability: 0.3, findings: [{ reason: 'UNTRUSTED_CONTENT_LOW_CONFIDENCE', rule: `content.reflection-${r.verdict}`, probability: 0.3, detail }] };
}

export class AdvancedLivenessService implements LivenessService {
  private readonly now: () => number;
  constructor(private readonly deps: AdvancedLivenessDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Issues a challenge for an application: nonce, colours, expiry and the station's public key. */
  challenge(applicationId: string): ChallengeView {
    const key = this.deps.keys.current;
    return challengeView(this.deps.challenges.issue(applicationId), key.kid, key.publicPoint, this.now());
  }

  async check(payload: Uint8Array, context: LivenessCheckContext): Promise<AdvancedLivenessResult> {
    return (await this.evaluate(payload, context)).result;
  }

  /** The check with everything it measured. @throws LivenessError for the 400s of the decision table. */
  async evaluate(payload: Uint8Array, context: LivenessCheckContext): Promise<LivenessReport> {
    const receivedAt = this.now();
    const t0 = performance.now();
    const env = parseEnvelope(payload);
    const key = this.deps.keys.find(env.keyId);
    if (!key) throw decryptError();
    const plain = openEnvelope(key.privateKey, env);
    if (!plain) {
      const finding: Finding = { reason: 'UNTRUSTED_CORRUPTED_PAYLOAD', rule: 'payload.authentication', probability: 0.01, detail: 'AES-GCM authentication failed' };
      return { result: verdict(0, [finding], 1), findings: [finding], faceSource: 'none' };
    }
    const { metadata: raw, frames } = unpackPlaintext(plain);
    const m = readMetadata(raw, frames.length);

    const taken = this.deps.challenges.consume(m.challenge.nonce, context.applicationId);
    if ('problem' in taken) {
      const finding = nonceFinding(taken.problem);
      return { result: verdict(0, [finding], 1), findings: [finding], faceSource: 'none' };
    }
    const c = taken.challenge;
    const findings: Finding[] = [...environmentRules(m), ...deviceRules(m), ...integrityRules(m, this.deps.builds), ...timingRules(m, c, receivedAt)];

    // Frame decoding and the key frame's face inspection run side by side; a frame error (400 "Failed
    // to read metadata") still takes precedence over a face error, whichever finishes first.
    const t1 = performance.now();
    const k = m.frames.findIndex((f) => f.role === 'key');
    let t2 = t1;
    const [decoded, inspected] = await Promise.allSettled([
      Promise.all(frames.map((f, i) => toRaster(f, m.frames[i]))).finally(() => (t2 = performance.now())),
      this.deps.faces.inspect(frames[k], { width: m.frames[k].width, height: m.frames[k].height }),
    ]);
    if (decoded.status === 'rejected') throw decoded.reason;
    if (inspected.status === 'rejected') throw inspected.reason;
    const rasters = decoded.value;
    const face = checkFace(inspected.value);
    const t3 = performance.now();

    const sx = ANALYSIS_WIDTH / m.frames[k].width;
    const sy = ANALYSIS_HEIGHT / m.frames[k].height;
    const b = face.box;
    const region = { x0: Math.round((b.x + 0.2 * b.width) * sx), x1: Math.round((b.x + 0.8 * b.width) * sx), y0: Math.round((b.y + 0.2 * b.height) * sy), y1: Math.round((b.y + 0.8 * b.height) * sy) };
    const challengeIdx = m.frames.map((f, i) => (f.role === 'challenge' ? i : -1)).filter((i) => i >= 0);
    const reflection = reflectionResponse({
      colours: c.colours.map((col, i) => ({ rgb: col.rgb, durationMs: col.durationMs, shownMs: m.challenge.shown_ms[i] ?? Number.NaN })),
      frames: challengeIdx.map((i) => ({ tMs: m.frames[i].t_ms, raster: rasters[i] })),
      face: region,
    });
    const refl = reflectionFindings(reflection);
    findings.push(...refl.findings);
    const copiedShare = copiedFrameShare(challengeIdx.map((i) => rasters[i]));
    if (copiedShare >= REFLECTION_LIMITS.copiedShare) {
      findings.push({ reason: 'UNTRUSTED_CONTENT', rule: 'content.no-sensor-noise', probability: 0.05, detail: `${Math.round(copiedShare * 100)} % of consecutive frames are pixel copies` });
    }

    const consistency = faceConsistency(rasters[k], challengeIdx.map((i) => rasters[i]), region);
    if (consistency < REFLECTION_LIMITS.minFaceCorrelation) {
      findings.push({ reason: 'UNTRUSTED_CONTENT', rule: 'content.face-changed', probability: 0.1, detail: `challenge frames do not show the key frame's face (median correlation ${consistency.toFixed(2)})` });
    }
    const t4 = performance.now();
    let faceProbability = refl.probability;
    let faceSource: LivenessReport['faceSource'] = 'reflection';
    const passive = this.deps.passive ? await this.deps.passive.probability(frames[k], face.box) : null;
    if (passive !== null) {
      faceProbability = passive;
      faceSource = 'passive';
    }
    const t5 = performance.now();
    const timings = { decryptMs: t1 - t0, decodeMs: t2 - t1, faceMs: t3 - t2, signalsMs: t4 - t3, passiveMs: t5 - t4 };
    return { result: verdict(faceProbability, findings, refl.probability), findings, reflection, copiedShare, faceConsistency: consistency, faceSource, timings };
  }
}

export type { RejectionReason };
export { LivenessError };
