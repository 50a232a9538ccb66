/**
 * The API's passive liveness gate refuses to decide without the network: the signals-only fusion
 * passes every real attack we have (README "Without the network file"), so a station without the
 * network file answers ENGINE_UNAVAILABLE (503) instead of a verdict, and counts nothing.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { PassiveLivenessGate } from '../../../src/liveness/passive/gate.js';
import { createPassiveLivenessEngine } from '../../../src/liveness/passive/index.js';

describe('passive liveness gate', () => {
  it('without the network file: ENGINE_UNAVAILABLE, no verdict, nothing counted', async () => {
    const engine = await createPassiveLivenessEngine({ useNetwork: false });
    const gate = new PassiveLivenessGate(async () => engine);
    const jpeg = new Uint8Array(await sharp({ create: { width: 200, height: 200, channels: 3, background: '#a08070' } }).jpeg().toBuffer());
    await expect(gate.require(jpeg, { x: 50, y: 40, width: 100, height: 120 })).rejects.toMatchObject({ name: 'BiostationError', code: 'ENGINE_UNAVAILABLE' });
    const counts = (await gate.counter.get()).values.reduce((s, v) => s + v.value, 0);
    expect(counts).toBe(0);
  });
});
