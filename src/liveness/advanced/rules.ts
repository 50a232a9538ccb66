/**
 * Metadata rules of the advanced liveness: each rule reads the decrypted metadata (and the
 * challenge the station issued) and may raise a finding with one of the spec's rejection reasons.
 * docs/liveness-payload.md lists every rule with what it can and cannot catch.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Challenge, NonceProblem } from './challenge.js';
import type { CaptureMetadata } from './metadata.js';

export type RejectionReason =
  | 'UNTRUSTED_ENVIRONMENT'
  | 'SUSPICIOUS_ACTIVITY'
  | 'UNTRUSTED_DEVICE'
  | 'SDK_INTEGRITY_VIOLATION'
  | 'UNTRUSTED_CORRUPTED_PAYLOAD'
  | 'UNTRUSTED_CONTENT'
  | 'UNTRUSTED_CONTENT_LOW_CONFIDENCE';

export interface Finding {
  reason: RejectionReason;
  /** Stable rule id, e.g. "device.virtual-label". */
  rule: string;
  /** Capture-legitimacy probability this rule alone allows (the capture probability is the minimum over findings). */
  probability: number;
  detail: string;
}

/** Camera labels of virtual / loopback / emulated devices (case-insensitive). */
export const VIRTUAL_CAMERA_LABEL =
  /virtual|\bobs\b|obs-camera|manycam|snap camera|xsplit|v4l2 ?loopback|loopback|dummy|fake|droidcam|epoccam|e2esoft|splitcam|camtwist|mmhmm|nvidia broadcast|iriun|ndi|camo\b|avatarify|deepfake/i;

/** A label that is a file path or a video file name: Chromium's file-backed fake camera (--use-file-for-fake-video-capture) and similar players. */
export const FILE_CAMERA_LABEL = /^\/|^[a-z]:\\|\.(y4m|mjpe?g|mp4|webm|avi|mkv|mov)$/i;

/** A nonce that cannot be used (see ChallengeStore.consume). */
export function nonceFinding(problem: NonceProblem): Finding {
  return { reason: 'SUSPICIOUS_ACTIVITY', rule: `nonce.${problem}`, probability: 0.02, detail: `challenge nonce ${problem}` };
}

/** The capture library copies the station knows (SHA-256 hex of each served build). */
export interface KnownBuilds {
  hashes(): Set<string>;
}

/** HMAC-SHA-256(key = build hash bytes, message = nonce), hex: the proof a genuine build sends. */
export function expectedProof(buildHash: string, nonce: string): string {
  return createHmac('sha256', Buffer.from(buildHash, 'hex')).update(nonce, 'utf8').digest('hex');
}

/** UNTRUSTED_ENVIRONMENT: automation and hooked browser APIs. */
export function environmentRules(m: CaptureMetadata): Finding[] {
  const out: Finding[] = [];
  const a = m.automation;
  const f = (rule: string, detail: string): Finding => ({ reason: 'UNTRUSTED_ENVIRONMENT', rule, probability: 0.1, detail });
  if (a.webdriver) out.push(f('env.webdriver', 'navigator.webdriver is true'));
  if (a.cdp_traces.length > 0 || a.cdp_runtime) out.push(f('env.cdp', `DevTools-protocol traces: ${[...a.cdp_traces, ...(a.cdp_runtime ? ['Runtime.enable'] : [])].join(', ')}`));
  if (a.headless_ua || /HeadlessChrome/i.test(m.navigator.user_agent)) out.push(f('env.headless', 'headless browser user agent'));
  const hooked = Object.entries(a.native).filter(([, native]) => !native).map(([name]) => name);
  if (hooked.length > 0) out.push(f('env.hooked-api', `not native: ${hooked.join(', ')}`));
  if (!m.page.secure_context) out.push(f('env.insecure-context', 'page is not a secure context'));
  if (a.botd?.bot) out.push(f('env.botd', `@fingerprintjs/botd: ${a.botd.kind ?? 'bot'}`));
  return out;
}

/** UNTRUSTED_DEVICE: virtual camera labels and a camera whose frames contradict what its track reports. */
export function deviceRules(m: CaptureMetadata): Finding[] {
  const out: Finding[] = [];
  const f = (rule: string, detail: string): Finding => ({ reason: 'UNTRUSTED_DEVICE', rule, probability: 0.1, detail });
  const labels = [m.camera.label, ...m.camera.labels].filter((l) => VIRTUAL_CAMERA_LABEL.test(l) || FILE_CAMERA_LABEL.test(l));
  if (labels.length > 0) out.push(f('device.virtual-label', `virtual or fake camera: ${[...new Set(labels)].join(', ')}`));
  const key = m.frames.find((fr) => fr.role === 'key')!;
  const sw = m.camera.settings.width;
  const sh = m.camera.settings.height;
  if (typeof sw === 'number' && typeof sh === 'number' && (sw !== key.width || sh !== key.height)) {
    out.push(f('device.settings-mismatch', `track reports ${sw}x${sh}, frames are ${key.width}x${key.height}`));
  }
  const lying = m.camera.probes.filter((p) => p.ok && p.reported.width !== undefined && (p.reported.width !== p.frame.width || p.reported.height !== p.frame.height));
  if (lying.length > 0) out.push(f('device.probe-mismatch', `${lying.length} resolution probe(s) where the track's report and the frames differ`));
  return out;
}

/** SDK_INTEGRITY_VIOLATION: unknown build, or a proof that does not bind the build to this nonce. */
export function integrityRules(m: CaptureMetadata, known: KnownBuilds): Finding[] {
  const f = (rule: string, detail: string): Finding => ({ reason: 'SDK_INTEGRITY_VIOLATION', rule, probability: 0.05, detail });
  if (!known.hashes().has(m.sdk.build_hash)) return [f('sdk.unknown-build', `library build ${m.sdk.build_hash.slice(0, 12)} is not one this station serves`)];
  const want = Buffer.from(expectedProof(m.sdk.build_hash, m.challenge.nonce), 'hex');
  if (!timingSafeEqual(want, Buffer.from(m.sdk.proof, 'hex'))) return [f('sdk.bad-proof', 'integrity proof does not match the build and nonce')];
  return [];
}

/**
 * SUSPICIOUS_ACTIVITY from timing: the colours were not shown for the durations the station drew,
 * frame times go backwards or fall outside the sequence, or the payload arrived sooner after the
 * challenge was issued than the sequence takes to show.
 */
export function timingRules(m: CaptureMetadata, c: Challenge, receivedAt: number): Finding[] {
  const out: Finding[] = [];
  const f = (rule: string, detail: string): Finding => ({ reason: 'SUSPICIOUS_ACTIVITY', rule, probability: 0.1, detail });
  const total = c.colours.reduce((a, x) => a + x.durationMs, 0);
  if (receivedAt - c.issuedAt < total - 50) out.push(f('timing.too-fast', `payload ${receivedAt - c.issuedAt} ms after the challenge, which takes ${total} ms to show`));
  const shown = m.challenge.shown_ms;
  let steps = shown.length === c.colours.length && shown[0] >= -1;
  for (let i = 1; steps && i < shown.length; i++) {
    const d = shown[i] - shown[i - 1];
    if (d < c.colours[i - 1].durationMs - 60 || d > c.colours[i - 1].durationMs + 1000) steps = false;
  }
  if (!steps) out.push(f('timing.sequence', 'colours were not shown for the durations the station drew'));
  const times = m.frames.filter((fr) => fr.role === 'challenge').map((fr) => fr.t_ms);
  const end = (shown[shown.length - 1] ?? 0) + c.colours[c.colours.length - 1].durationMs;
  if (times.some((t, i) => (i > 0 && t <= times[i - 1]) || t < -500 || t > end + 500)) out.push(f('timing.frames', 'frame times go backwards or fall outside the sequence (500 ms slack for camera latency)'));
  return out;
}
