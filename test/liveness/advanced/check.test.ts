import { describe, expect, it } from 'vitest';
import { integrityProof, packPlaintext, sealPayload, unhex } from '../../../renderer/capture/liveness/payload.js';
import { LivenessKeyStore } from '../../../src/liveness/advanced/keys.js';
import { passiveFromEngine, toSpecScale } from '../../../src/liveness/advanced/passive.js';
import { LivenessError } from '../../../src/liveness/service.js';
import { APP, COLOURS, capture, rig, type Rig } from './fixtures.js';

const ctx = { applicationId: APP };

async function rejection400(r: Rig, payload: Uint8Array): Promise<{ message: string; errorCode: string }> {
  try {
    await r.service.check(payload, ctx);
  } catch (e) {
    expect(e).toBeInstanceOf(LivenessError);
    expect((e as LivenessError).status).toBe(400);
    return { message: (e as Error).message, errorCode: (e as LivenessError).errorCode };
  }
  throw new Error('expected a 400');
}

describe('advanced liveness: positive path', () => {
  it('frames that reflect the colours in time, clean environment: probability >= 0.5, empty rejection', async () => {
    const r = rig();
    const { payload } = await capture(r);
    const report = await r.service.evaluate(payload, ctx);
    expect(report.findings).toEqual([]);
    expect(report.reflection?.verdict).toBe('follows');
    expect(report.faceConsistency).toBeGreaterThan(0.9);
    const d = report.result.data;
    expect(d.capture_liveness.rejection).toEqual([]);
    expect(d.capture_liveness.probability).toBeGreaterThanOrEqual(0.5);
    expect(d.face_liveness.probability).toBeGreaterThanOrEqual(0.5);
    expect(d.capture_liveness.score).toBeGreaterThanOrEqual(0.5);
    expect(Object.keys(d.face_liveness)).toEqual(['probability']);
  });
});

describe('advanced liveness: face_liveness from the passive detector', () => {
  it('takes the passive probability (engine scale mapped so that its threshold is 0.5); the capture verdict stays its own', async () => {
    const engine = { check: async () => ({ probability: 0.3, threshold: 0.6 }) };
    const r = rig(passiveFromEngine(async () => engine));
    const report = await r.service.evaluate((await capture(r)).payload, ctx);
    expect(report.faceSource).toBe('passive');
    expect(report.result.data.face_liveness.probability).toBe(0.25);
    expect(report.result.data.capture_liveness.rejection).toEqual([]);
    expect(report.result.data.capture_liveness.score).toBe(0.25);
  });

  it('a frame the passive engine cannot judge (quality gates) falls back to the reflection evidence', async () => {
    const engine = { check: async () => Promise.reject(Object.assign(new Error('blurred'), { code: 'LIVENESS_QUALITY_TOO_LOW' })) };
    const r = rig(passiveFromEngine(async () => engine));
    const report = await r.service.evaluate((await capture(r)).payload, ctx);
    expect(report.faceSource).toBe('reflection');
    expect(report.result.data.face_liveness.probability).toBeGreaterThanOrEqual(0.5);
  });

  it('an engine without its network is not asked (its signals-only score passes real attacks): reflection evidence', async () => {
    let asked = 0;
    const engine = { hasNetwork: false, check: async () => { asked++; return { probability: 0.99, threshold: 0.5 }; } };
    const r = rig(passiveFromEngine(async () => engine));
    const report = await r.service.evaluate((await capture(r)).payload, ctx);
    expect(report.faceSource).toBe('reflection');
    expect(asked).toBe(0);
  });

  it('toSpecScale maps the threshold to 0.5 and keeps 0 and 1', () => {
    expect([toSpecScale(0, 0.7), toSpecScale(0.7, 0.7), toSpecScale(1, 0.7)]).toEqual([0, 0.5, 1]);
  });
});

describe('advanced liveness: each rejection rule fires alone', () => {
  const only = async (r: Rig, payload: Uint8Array, reason: string) => {
    const res = await r.service.check(payload, ctx);
    expect(res.success).toBe(true);
    expect(res.data.capture_liveness.rejection).toEqual([reason]);
    expect(res.data.capture_liveness.probability).toBeLessThan(0.5);
    return res;
  };

  it('UNTRUSTED_ENVIRONMENT: navigator.webdriver', async () => {
    const r = rig();
    await only(r, (await capture(r, { metadata: (m) => (m.automation.webdriver = true) })).payload, 'UNTRUSTED_ENVIRONMENT');
  });

  it('UNTRUSTED_ENVIRONMENT: @fingerprintjs/botd says bot', async () => {
    const r = rig();
    await only(r, (await capture(r, { metadata: (m) => (m.automation.botd = { bot: true, kind: 'headless_chrome' }) })).payload, 'UNTRUSTED_ENVIRONMENT');
  });

  it('UNTRUSTED_ENVIRONMENT: a hooked getUserMedia', async () => {
    const r = rig();
    await only(r, (await capture(r, { metadata: (m) => (m.automation.native.getUserMedia = false) })).payload, 'UNTRUSTED_ENVIRONMENT');
  });

  it('UNTRUSTED_DEVICE: a virtual camera label', async () => {
    const r = rig();
    await only(r, (await capture(r, { metadata: (m) => (m.camera.label = 'OBS Virtual Camera') })).payload, 'UNTRUSTED_DEVICE');
  });

  it("UNTRUSTED_DEVICE: a file-backed fake camera (Chromium's --use-file-for-fake-video-capture names it by its path)", async () => {
    const r = rig();
    await only(r, (await capture(r, { metadata: (m) => (m.camera.label = '/tmp/camera.y4m') })).payload, 'UNTRUSTED_DEVICE');
  });

  it('UNTRUSTED_DEVICE: the track reports another resolution than its frames', async () => {
    const r = rig();
    await only(r, (await capture(r, { metadata: (m) => (m.camera.settings.width = 1280) })).payload, 'UNTRUSTED_DEVICE');
  });

  it('SDK_INTEGRITY_VIOLATION: a build the station does not serve', async () => {
    const r = rig();
    const other = 'ab'.repeat(32);
    const { payload } = await capture(r, {
      metadata: (m) => {
        m.sdk.build_hash = other;
      },
    });
    await only(r, payload, 'SDK_INTEGRITY_VIOLATION');
  });

  it('SDK_INTEGRITY_VIOLATION: a proof made for another nonce', async () => {
    const r = rig();
    const bad = await integrityProof('cd'.repeat(32), 'other');
    await only(r, (await capture(r, { metadata: (m) => (m.sdk.proof = bad) })).payload, 'SDK_INTEGRITY_VIOLATION');
  });

  it('UNTRUSTED_CORRUPTED_PAYLOAD: one ciphertext byte flipped', async () => {
    const r = rig();
    const { payload } = await capture(r);
    payload[payload.length - 100] ^= 0x01;
    const res = await only(r, payload, 'UNTRUSTED_CORRUPTED_PAYLOAD');
    expect(res.data.face_liveness.probability).toBe(0);
  });

  it('SUSPICIOUS_ACTIVITY: the same payload twice (replayed nonce)', async () => {
    const r = rig();
    const { payload } = await capture(r);
    expect((await r.service.check(payload, ctx)).data.capture_liveness.rejection).toEqual([]);
    await only(r, payload, 'SUSPICIOUS_ACTIVITY');
  });

  it('SUSPICIOUS_ACTIVITY: an expired challenge, and a nonce of another application', async () => {
    const r = rig();
    const { payload } = await capture(r);
    r.clock.now += 10 * 60_000;
    await only(r, payload, 'SUSPICIOUS_ACTIVITY');
    const r2 = rig();
    const res = await r2.service.check((await capture(r2)).payload, { applicationId: 'someone-else' });
    expect(res.data.capture_liveness.rejection).toEqual(['SUSPICIOUS_ACTIVITY']);
  });

  it('SUSPICIOUS_ACTIVITY: the payload arrives sooner than the sequence takes to show', async () => {
    const r = rig();
    const { payload, challenge } = await capture(r);
    r.clock.now = challenge.issuedAt + 300;
    const report = await r.service.evaluate(payload, ctx);
    expect(report.findings.map((f) => f.rule)).toEqual(['timing.too-fast']);
    expect(report.result.data.capture_liveness.rejection).toEqual(['SUSPICIOUS_ACTIVITY']);
  });

  it('SUSPICIOUS_ACTIVITY: colours reported shown for other durations than drawn', async () => {
    const r = rig();
    const report = await r.service.evaluate((await capture(r, { metadata: (m) => (m.challenge.shown_ms = [0, 400, 800, 3000]) })).payload, ctx);
    expect(report.findings.map((f) => f.rule)).toContain('timing.sequence');
    expect(report.result.data.capture_liveness.rejection).toContain('SUSPICIOUS_ACTIVITY');
  });

  it('UNTRUSTED_CONTENT: the face reflects another colour sequence', async () => {
    const r = rig();
    const reflect = [COLOURS[2], COLOURS[3], COLOURS[0], COLOURS[1]];
    await only(r, (await capture(r, { reflect })).payload, 'UNTRUSTED_CONTENT');
  });

  it('UNTRUSTED_CONTENT: frames are pixel copies (no sensor noise) even though they follow the colours', async () => {
    const r = rig();
    const report = await r.service.evaluate((await capture(r, { noise: 2, seedOf: (_i, k) => 100 + k })).payload, ctx);
    expect(report.reflection?.verdict).toBe('follows');
    expect(report.result.data.capture_liveness.rejection).toEqual(['UNTRUSTED_CONTENT']);
    expect(report.findings.map((f) => f.rule)).toEqual(['content.no-sensor-noise']);
  });

  it('UNTRUSTED_CONTENT: the challenge frames show another face than the key frame (spliced capture)', async () => {
    const r = rig();
    const report = await r.service.evaluate((await capture(r, { otherFace: true })).payload, ctx);
    expect(report.findings.map((f) => f.rule)).toEqual(['content.face-changed']);
    expect(report.result.data.capture_liveness.rejection).toEqual(['UNTRUSTED_CONTENT']);
  });

  it('UNTRUSTED_CONTENT_LOW_CONFIDENCE: no measurable reflection (e.g. bright sunlight)', async () => {
    const r = rig();
    await only(r, (await capture(r, { reflection: 0.3 })).payload, 'UNTRUSTED_CONTENT_LOW_CONFIDENCE');
  });
});

describe('advanced liveness: the 400s of the decision table', () => {
  it('random bytes and a wrong magic: Failed to parse file', async () => {
    const r = rig();
    const random = new Uint8Array(4096).map(() => Math.floor(Math.random() * 256));
    expect(await rejection400(r, random)).toEqual({ message: 'Failed to parse file', errorCode: 'UNKNOWN' });
    const { payload } = await capture(r);
    payload[0] = 0x41;
    expect(await rejection400(r, payload)).toEqual({ message: 'Failed to parse file', errorCode: 'UNKNOWN' });
  });

  it("a payload for another station's key: Failed to decrypt message", async () => {
    const r = rig();
    const other = LivenessKeyStore.ephemeral().current;
    const payload = await sealPayload(packPlaintext({ metadata: {}, frames: [] }), new Uint8Array(other.publicPoint), unhex(other.kid));
    expect(await rejection400(r, payload)).toEqual({ message: 'Failed to decrypt message', errorCode: 'UNKNOWN' });
  });

  it('a rotated-out key still opens (kept as previous), two rotations later it does not', async () => {
    const r = rig();
    const { payload } = await capture(r);
    r.keys.rotate();
    expect((await r.service.check(payload, ctx)).data.capture_liveness.rejection).toEqual([]);
    const again = await capture(r);
    r.keys.rotate();
    r.keys.rotate();
    expect(await rejection400(r, again.payload)).toEqual({ message: 'Failed to decrypt message', errorCode: 'UNKNOWN' });
  });

  it('metadata that is not v1: Failed to read metadata', async () => {
    const r = rig();
    const key = r.keys.current;
    const payload = await sealPayload(packPlaintext({ metadata: { v: 2 }, frames: [] }), new Uint8Array(key.publicPoint), unhex(key.kid));
    expect(await rejection400(r, payload)).toEqual({ message: 'Failed to read metadata', errorCode: 'UNKNOWN' });
  });

  it('a frame whose JPEG size is not the size the metadata states, or not a JPEG: Failed to read metadata', async () => {
    const r = rig();
    const lying = await capture(r, { metadata: (m) => (m.frames[3].width = 1280) });
    expect(await rejection400(r, lying.payload)).toEqual({ message: 'Failed to read metadata', errorCode: 'UNKNOWN' });
  });

  const faceCase = (name: string, setup: (r: Rig) => void, message: string, errorCode: string) =>
    it(`${errorCode}: ${message}`, async () => {
      const r = rig();
      setup(r);
      expect(await rejection400(r, (await capture(r)).payload)).toEqual({ message, errorCode });
    });
  const box = (x: number, y: number, width: number, height: number) => ({ box: { x, y, width, height }, score: 0.9, yawDeg: 0, pitchDeg: 0 });
  faceCase('none', (r) => (r.inspector.faces = []), 'Face not found', 'FACE_NOT_FOUND');
  faceCase('cropped', (r) => (r.inspector.faces = [box(500, 100, 200, 260)]), 'Face is cropped', 'FACE_CROPPED');
  faceCase('occluded', (r) => (r.inspector.faces = [{ ...box(220, 100, 200, 260), occluded: true }]), 'Face is occluded', 'FACE_IS_OCCLUDED');
  faceCase('two', (r) => (r.inspector.faces = [box(220, 100, 200, 260), box(20, 100, 150, 200)]), 'Too many faces detected', 'TOO_MANY_FACES');
  faceCase('angle', (r) => (r.inspector.faces = [{ ...box(220, 100, 200, 260), yawDeg: 50 }]), 'Facial out-of-plane rotation angle is extremely large', 'FACE_ANGLE_TOO_LARGE');
  faceCase('abs', (r) => (r.inspector.faces = [box(260, 150, 80, 100)]), 'Absolute face size is too small', 'FACE_TOO_SMALL');
  faceCase('rel', (r) => {
    r.inspector.faces = [box(900, 300, 120, 150)];
    r.inspector.size = { width: 1920, height: 1080 };
  }, 'Relative face size is too small', 'FACE_TOO_SMALL');
  faceCase('border', (r) => (r.inspector.faces = [box(5, 100, 200, 260)]), 'Face is too close to one or more borders', 'FACE_CLOSE_TO_BORDER');
  faceCase('small image', (r) => (r.inspector.size = { width: 640, height: 400 }), 'Image too small to be processed', 'IMAGE_TOO_SMALL');

  it('the checks run in the table order: a cropped face that is also too small is FACE_CROPPED', async () => {
    const r = rig();
    r.inspector.faces = [box(600, 100, 60, 80)];
    expect((await rejection400(r, (await capture(r)).payload)).errorCode).toBe('FACE_CROPPED');
  });
});
