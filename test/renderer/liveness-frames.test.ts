/**
 * The kiosk's client sends a capture's extra frames as the station's `livenessFrames` only when the passive
 * liveness check is asked (the station refuses them otherwise), and never for an empty list.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../renderer/src/api.js';

function answer(body: unknown) {
  const bodies: any[] = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    bodies.push(JSON.parse(String(init.body)));
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  return bodies;
}

beforeEach(() => {
  const store = new Map<string, string>();
  vi.stubGlobal('sessionStorage', { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v), removeItem: (k: string) => void store.delete(k) });
});
afterEach(() => vi.unstubAllGlobals());

describe('livenessFrames in the kiosk client', () => {
  const frame = (imageData: string) => ({ imageType: 'frontal', imageData });

  it('verify, identify and enroll carry the frames with doLivenessCheck true', async () => {
    const bodies = answer({ result: { code: 1002, message: 'VERIFIED_SUCCESSFULLY' }, ExternalID: 'x', score: 0.9, threshold: 0.85 });
    await api.verifyFace('x', 'MAIN', true, ['F1', 'F2', 'F3']);
    expect(bodies[0]).toEqual({ doLivenessCheck: true, Images: [frame('MAIN')], livenessFrames: [frame('F1'), frame('F2'), frame('F3')] });
    const identify = answer({ result: { code: 1008, message: 'IDENTIFIED_SUCCESSFULLY' }, ExternalID: 'x', score: 0.9, threshold: 0.85 });
    await api.identifyFace('MAIN', true, ['F1']);
    expect(identify[0].livenessFrames).toEqual([frame('F1')]);
    const enroll = answer({ result: { code: 1000, message: 'ENROLLED_SUCCESSFULLY' } });
    await api.enrollFace('x', 'MAIN', true, ['F1', 'F2', 'F3']);
    expect(enroll[0].livenessFrames).toHaveLength(3);
  });

  it('no frames without the check, nor for an empty list or an upload (no frames): the body is as before', async () => {
    const bodies = answer({ result: { code: 1002, message: 'VERIFIED_SUCCESSFULLY' }, score: 0.9, threshold: 0.85 });
    await api.verifyFace('x', 'MAIN', false, ['F1', 'F2', 'F3']);
    await api.verifyFace('x', 'MAIN', true, []);
    await api.verifyFace('x', 'MAIN', true);
    expect(bodies).toEqual([
      { doLivenessCheck: false, Images: [frame('MAIN')] },
      { doLivenessCheck: true, Images: [frame('MAIN')] },
      { doLivenessCheck: true, Images: [frame('MAIN')] },
    ]);
  });
});
