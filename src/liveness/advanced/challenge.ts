/**
 * Server-issued challenges: a one-time nonce that expires, and a random sequence of 4-6 screen
 * colours shown 300-500 ms each (under 3 flashes per second, the photosensitive-safety bound the
 * iProov / AWS Face Liveness anchors keep). Held in memory: a restart forgets every open challenge,
 * so a payload made before it is answered as an unknown nonce.
 */
import { randomBytes, randomInt } from 'node:crypto';

/** Where the station serves the capture library (the file under the UI folder). */
export const LIBRARY_PATH = '/capture/biostation-capture.js';

/** The colours a challenge draws from: saturated, far apart in chromaticity (sRGB). */
export const PALETTE: ReadonlyArray<{ name: string; rgb: [number, number, number] }> = [
  { name: 'red', rgb: [255, 0, 0] },
  { name: 'green', rgb: [0, 255, 0] },
  { name: 'blue', rgb: [0, 0, 255] },
  { name: 'yellow', rgb: [255, 255, 0] },
  { name: 'magenta', rgb: [255, 0, 255] },
  { name: 'cyan', rgb: [0, 255, 255] },
];

export interface ChallengeColour {
  /** Index into PALETTE. */
  index: number;
  rgb: [number, number, number];
  /** How long the colour is shown, ms (300-500). */
  durationMs: number;
}

export interface Challenge {
  nonce: string;
  applicationId: string;
  issuedAt: number;
  expiresAt: number;
  colours: ChallengeColour[];
}

/** Why a nonce was not accepted (all of them are SUSPICIOUS_ACTIVITY). */
export type NonceProblem = 'unknown' | 'replayed' | 'expired' | 'other-application';

export interface ChallengeStoreOptions {
  /** Lifetime of a challenge, ms (default 120 s). */
  ttlMs?: number;
  /** Most open challenges kept (oldest dropped first). */
  maxOpen?: number;
  /** Most open challenges of one application (its oldest dropped first), so one client cannot evict the others'. */
  maxOpenPerApplication?: number;
  now?: () => number;
}

/**
 * Whether a colour sequence equals one of its cyclic shifts (red green red green; A B C A B C). The
 * reflection rule (reflection.ts reflectionResponse) asks the response to follow the sequence better
 * than any shift of it; for such a sequence a shift assigns the very same colours, so even a perfect
 * response ties it and reads "weak" (UNTRUSTED_CONTENT_LOW_CONFIDENCE for a live person). Of all draws
 * 1.6 % were so: 30 of the 750 four-colour ones, 150 of the 18 750 six-colour ones.
 */
export function isPeriodic(indices: readonly number[]): boolean {
  const n = indices.length;
  for (let s = 1; s < n; s++) if (indices.every((c, j) => c === indices[(j + s) % n])) return true;
  return false;
}

/** Draws a sequence: 4-6 colours, no colour twice in a row, each 300-500 ms, never periodic (isPeriodic). */
export function drawColours(): ChallengeColour[] {
  for (;;) {
    const n = randomInt(4, 7);
    const out: ChallengeColour[] = [];
    let last = -1;
    for (let i = 0; i < n; i++) {
      let index = randomInt(PALETTE.length - 1);
      if (index >= last && last >= 0) index += 1;
      out.push({ index, rgb: PALETTE[index].rgb, durationMs: randomInt(300, 501) });
      last = index;
    }
    if (!isPeriodic(out.map((c) => c.index))) return out;
  }
}

export class ChallengeStore {
  private readonly open = new Map<string, Challenge>();
  /** Nonces already used, kept until their expiry so that a replay is told apart from an unknown nonce. */
  private readonly used = new Map<string, number>();
  readonly ttlMs: number;
  private readonly maxOpen: number;
  private readonly maxPerApp: number;
  private readonly now: () => number;

  constructor(options: ChallengeStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? 120_000;
    this.maxOpen = options.maxOpen ?? 10_000;
    this.maxPerApp = options.maxOpenPerApplication ?? 50;
    this.now = options.now ?? Date.now;
  }

  /** Issues a challenge to an application. `colours` may be given (tests); otherwise drawn at random. */
  issue(applicationId: string, colours: ChallengeColour[] = drawColours()): Challenge {
    this.prune();
    const mine = [...this.open.values()].filter((c) => c.applicationId === applicationId);
    for (const c of mine.slice(0, Math.max(0, mine.length - this.maxPerApp + 1))) this.open.delete(c.nonce);
    while (this.open.size >= this.maxOpen) this.open.delete(this.open.keys().next().value as string);
    const issuedAt = this.now();
    const c: Challenge = { nonce: randomBytes(18).toString('base64url'), applicationId, issuedAt, expiresAt: issuedAt + this.ttlMs, colours };
    this.open.set(c.nonce, c);
    return c;
  }

  /**
   * Takes the challenge of a nonce, once: the nonce is spent whatever the outcome.
   * @returns the challenge, or the reason it cannot be used.
   */
  consume(nonce: string, applicationId: string): { challenge: Challenge } | { problem: NonceProblem } {
    this.prune();
    if (this.used.has(nonce)) return { problem: 'replayed' };
    const c = this.open.get(nonce);
    if (!c) return { problem: 'unknown' };
    this.open.delete(nonce);
    this.used.set(nonce, c.expiresAt + this.ttlMs);
    if (c.applicationId !== applicationId) return { problem: 'other-application' };
    if (this.now() > c.expiresAt) return { problem: 'expired' };
    return { challenge: c };
  }

  private prune(): void {
    const now = this.now();
    // Expired challenges stay one more lifetime, so that a late payload reads "expired", not "unknown".
    for (const [k, c] of this.open) if (c.expiresAt + this.ttlMs < now) this.open.delete(k);
    for (const [k, until] of this.used) if (until < now) this.used.delete(k);
  }
}

/** The challenge as the API returns it (POST /api/v1/services/liveness/challenge). */
export interface ChallengeView {
  format_version: 1;
  nonce: string;
  expires_at: string;
  expires_in_s: number;
  colours: Array<{ name: string; rgb: [number, number, number]; duration_ms: number }>;
  key: { kid: string; crv: 'P-256'; public_key: string };
  library: string;
}

export function challengeView(c: Challenge, kid: string, publicKey: Buffer, now = Date.now()): ChallengeView {
  return {
    format_version: 1,
    nonce: c.nonce,
    expires_at: new Date(c.expiresAt).toISOString(),
    expires_in_s: Math.max(0, Math.round((c.expiresAt - now) / 1000)),
    colours: c.colours.map((x) => ({ name: PALETTE[x.index].name, rgb: x.rgb, duration_ms: x.durationMs })),
    key: { kid, crv: 'P-256', public_key: publicKey.toString('base64url') },
    library: LIBRARY_PATH,
  };
}
