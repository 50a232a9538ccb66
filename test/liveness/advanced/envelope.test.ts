import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChallengeStore } from '../../../src/liveness/advanced/challenge.js';
import { HEADER_BYTES } from '../../../src/liveness/advanced/envelope.js';
import { LivenessError } from '../../../src/liveness/service.js';
import { APP, capture, rig } from './fixtures.js';

const ctx = { applicationId: APP };

describe('envelope edge cases', () => {
  it('flags not 0, a compressed ephemeral point, a truncated header: Failed to parse file', async () => {
    const r = rig();
    const { payload } = await capture(r);
    for (const [i, v] of [[5, 1], [14, 0x02]] as const) {
      const p = payload.slice();
      p[i] = v;
      await expect(r.service.check(p, ctx)).rejects.toMatchObject({ status: 400, message: 'Failed to parse file' });
    }
    await expect(r.service.check(payload.slice(0, HEADER_BYTES + 10), ctx)).rejects.toMatchObject({ status: 400, message: 'Failed to parse file' });
  });

  it('an ephemeral point off the curve, or a changed IV (header is authenticated): UNTRUSTED_CORRUPTED_PAYLOAD', async () => {
    const r = rig();
    const { payload } = await capture(r);
    for (const i of [20, 85]) {
      const p = payload.slice();
      p[i] ^= 0x01;
      expect((await r.service.check(p, ctx)).data.capture_liveness.rejection).toEqual(['UNTRUSTED_CORRUPTED_PAYLOAD']);
    }
  });

  it('any flip or truncation of a valid payload is a 400 or a 200 rejection, never another error', async () => {
    const r = rig();
    const { payload } = await capture(r);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: payload.length - 1 }), fc.integer({ min: 1, max: 255 }), fc.boolean(), async (i, x, truncate) => {
        const p = truncate ? payload.slice(0, i) : payload.slice();
        if (!truncate) p[i] ^= x;
        try {
          const res = await r.service.check(p, ctx);
          expect(res.data.capture_liveness.rejection.length).toBeGreaterThan(0);
        } catch (e) {
          expect(e).toBeInstanceOf(LivenessError);
          expect((e as LivenessError).status).toBe(400);
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('challenge store', () => {
  it('keeps at most maxOpenPerApplication open challenges per application, dropping that application\'s oldest', () => {
    const s = new ChallengeStore({ maxOpenPerApplication: 3 });
    const other = s.issue('b');
    const mine = [1, 2, 3, 4].map(() => s.issue('a'));
    expect(s.consume(mine[0].nonce, 'a')).toEqual({ problem: 'unknown' });
    expect('challenge' in s.consume(mine[3].nonce, 'a')).toBe(true);
    expect('challenge' in s.consume(other.nonce, 'b')).toBe(true);
  });

  it('draws 4-6 colours of 300-500 ms with no colour twice in a row', () => {
    const s = new ChallengeStore();
    for (let n = 0; n < 200; n++) {
      const { colours } = s.issue('a');
      expect(colours.length).toBeGreaterThanOrEqual(4);
      expect(colours.length).toBeLessThanOrEqual(6);
      colours.forEach((c, i) => {
        expect(c.durationMs).toBeGreaterThanOrEqual(300);
        expect(c.durationMs).toBeLessThanOrEqual(500);
        if (i > 0) expect(c.index).not.toBe(colours[i - 1].index);
      });
    }
  });
});
