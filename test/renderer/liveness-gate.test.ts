import { describe, expect, it } from 'vitest';
import { GATE_OFF, livenessGateBlock, livenessVerdictOf } from '../../renderer/src/advanced-liveness.js';

describe('kiosk: the advanced liveness option gates enrollment and verification', () => {
  const live = livenessVerdictOf(200, { data: { face_liveness: { probability: 0.9 }, capture_liveness: { probability: 0.8, rejection: [] } } });
  const rejected = livenessVerdictOf(200, { data: { face_liveness: { probability: 0.9 }, capture_liveness: { probability: 0.2, rejection: ['UNTRUSTED_DEVICE'] } } });
  const failed = livenessVerdictOf(400, { error_code: 'INVALID_PAYLOAD', message: 'Failed to parse file' });
  it('lets the action go ahead with the option off or a live verdict, refuses it while pending or rejected', () => {
    expect(livenessGateBlock(GATE_OFF)).toBeNull();
    expect(livenessGateBlock({ open: false, verdict: rejected })).toBeNull();
    expect(livenessGateBlock({ open: true, verdict: null })).toBe('pending');
    expect(livenessGateBlock({ open: true, verdict: live })).toBeNull();
    expect(livenessGateBlock({ open: true, verdict: rejected })).toBe('rejected');
    expect(livenessGateBlock({ open: true, verdict: failed })).toBe('rejected');
  });
});
