/** Joint decision over several images of one session (src/liveness/passive/session.ts). */
import { describe, expect, it } from 'vitest';
import { sessionDecision } from '../../../src/liveness/passive/session.js';

describe('session decision', () => {
  it("'every': the lowest image decides", () => {
    expect(sessionDecision([0.9, 0.4, 0.8], 0.5, 'every')).toEqual({ probability: 0.4, live: false });
    expect(sessionDecision([0.9, 0.6], 0.5, 'every').live).toBe(true);
  });

  it("'mean': mean log-odds against logit(threshold); one poor frame does not sink a live session, one lucky frame does not carry an attack", () => {
    expect(sessionDecision([0.95, 0.4, 0.9], 0.5, 'mean').live).toBe(true);
    expect(sessionDecision([0.01, 0.7, 0.02], 0.5, 'mean').live).toBe(false);
    // a single image: the same as that image
    const one = sessionDecision([0.3], 0.5, 'mean');
    expect(one.probability).toBeCloseTo(0.3, 6);
    expect(one.live).toBe(false);
  });

  it('refuses no images and probabilities outside 0..1', () => {
    expect(() => sessionDecision([], 0.5, 'mean')).toThrow(RangeError);
    expect(() => sessionDecision([1.2], 0.5, 'every')).toThrow(RangeError);
    expect(() => sessionDecision([Number.NaN], 0.5, 'mean')).toThrow(RangeError);
  });
});
