/**
 * livenessFrames' pure parts (src/liveness/passive/frames.ts): the consistency bounds of a frame against
 * the main image, and the session decision (mean log-odds, frames dropped by the quality gates, one count
 * per request) over a stand-in gate whose per-image results are given.
 */
import { describe, expect, it } from 'vitest';
import { FRAME_BOX_BOUNDS, frameInconsistency, requireSession } from '../../../src/liveness/passive/frames.js';
import type { JudgedImage, PassiveLivenessGate } from '../../../src/liveness/passive/gate.js';
import { PassiveLivenessGate as Gate } from '../../../src/liveness/passive/gate.js';

const main = { x: 100, y: 100, width: 200, height: 220 };

describe('frameInconsistency', () => {
  it('accepts the same face nearly in place; names another person, a moved face, a rescaled face', () => {
    expect(frameInconsistency(main, { box: { ...main, x: 110, y: 95 }, similarity: 0.97 }, 0.85)).toBeNull();
    expect(frameInconsistency(main, { box: main, similarity: 0.6 }, 0.85)).toMatch(/another person/);
    expect(frameInconsistency(main, { box: main, similarity: Number.NaN }, 0.85)).toMatch(/another person/);
    const moved = main.width * (FRAME_BOX_BOUNDS.maxCentreShift + 0.01);
    expect(frameInconsistency(main, { box: { ...main, x: main.x + moved }, similarity: 0.97 }, 0.85)).toMatch(/face moved/);
    expect(frameInconsistency(main, { box: { x: 75, y: 72, width: 250, height: 275 }, similarity: 0.97 }, 0.85)).toBeNull(); // x1.25 about the centre
    expect(frameInconsistency(main, { box: { x: 70, y: 70, width: 260, height: 280 }, similarity: 0.97 }, 0.85)).toMatch(/scale/);
    expect(frameInconsistency(main, { box: { x: 125, y: 125, width: 150, height: 165 }, similarity: 0.97 }, 0.85)).toMatch(/scale/);
  });
});

/** A gate whose judge answers from a table keyed by the image's first byte. */
function standIn(results: Record<number, JudgedImage>): PassiveLivenessGate {
  const gate = new Gate(async () => { throw new Error('not used'); });
  gate.judge = async (image: Uint8Array) => results[image[0]!]!;
  return gate;
}
const judged = (p: number): JudgedImage => ({ judged: true, probability: p, live: p >= 0.5, verdict: { score: p, threshold: 0.5, mode: 'cnn+signals', evidence: [] } });
const poor: JudgedImage = { judged: false, message: 'The face cannot be checked for liveness: underexposed', failures: ['underexposed'] };
const img = (k: number) => ({ image: new Uint8Array([k]), box: main });
const count = async (g: PassiveLivenessGate) => Object.fromEntries((await g.counter.get()).values.map((v) => [v.labels.outcome, v.value]));

describe('requireSession', () => {
  it('passes on the mean log-odds even when the main image alone would fail; reports every frame', async () => {
    const gate = standIn({ 0: judged(0.4), 1: judged(0.9), 2: judged(0.8) });
    const v = await requireSession(gate, img(0), [img(1), img(2)]);
    const logit = (p: number) => Math.log(p / (1 - p));
    expect(v.score).toBeCloseTo(1 / (1 + Math.exp(-(logit(0.4) + logit(0.9) + logit(0.8)) / 3)), 6);
    expect(v.frames).toEqual({ rule: 'mean-log-odds', imageScore: 0.4, scores: [0.9, 0.8], dropped: [], used: 3 });
    expect(await count(gate)).toEqual({ live: 1 });
  });

  it('an attack whose frames are attacks too: LIVENESS_CHECK_FAILED with the session verdict, counted once', async () => {
    const gate = standIn({ 0: judged(0.001), 1: judged(0.002), 2: judged(0.6) });
    await expect(requireSession(gate, img(0), [img(1), img(2)])).rejects.toMatchObject({
      code: 'LIVENESS_CHECK_FAILED',
      details: { liveness: { frames: { rule: 'mean-log-odds', imageScore: 0.001, scores: [0.002, 0.6], used: 3 } } },
    });
    expect(await count(gate)).toEqual({ attack: 1 });
  });

  it('a frame too poor to judge is dropped; a main image too poor to judge is FACE_QUALITY_TOO_LOW', async () => {
    const gate = standIn({ 0: judged(0.9), 1: poor, 2: judged(0.7), 3: poor });
    const v = await requireSession(gate, img(0), [img(1), img(2)]);
    expect(v.frames).toMatchObject({ scores: [null, 0.7], dropped: [{ index: 0, failures: ['underexposed'] }], used: 2 });
    await expect(requireSession(gate, img(3), [img(0)])).rejects.toMatchObject({ code: 'FACE_QUALITY_TOO_LOW', details: { failures: ['underexposed'], liveness: true } });
    expect(await count(gate)).toEqual({ live: 1, unusable: 1 });
  });
});
