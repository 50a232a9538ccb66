import { describe, expect, it } from 'vitest';
import { adviceFor, livenessVerdictOf } from '../../renderer/src/advanced-liveness.js';

const ok = (face: number, capture: number, rejection: string[]) => ({ success: true, data: { face_liveness: { probability: face }, capture_liveness: { probability: capture, score: capture, rejection } } });

describe('kiosk advanced liveness verdict', () => {
  it('is live only for a 200 with both probabilities >= 0.5 and no rejection', () => {
    expect(livenessVerdictOf(200, ok(0.9, 0.8, [])).live).toBe(true);
    expect(livenessVerdictOf(200, ok(0.5, 0.5, [])).live).toBe(true);
    expect(livenessVerdictOf(200, ok(0.9, 0.8, ['UNTRUSTED_CONTENT_LOW_CONFIDENCE'])).live).toBe(false);
    expect(livenessVerdictOf(200, ok(0.49, 0.9, [])).live).toBe(false);
    expect(livenessVerdictOf(200, ok(0.9, 0.05, [])).live).toBe(false);
    expect(livenessVerdictOf(200, { data: { face_liveness: { probability: 0.9 } } }).live).toBe(false);
    expect(livenessVerdictOf(200, undefined).live).toBe(false);
  });

  it('a rejection says what to change; a 400 keeps its plain message and its advice', () => {
    const rejected = livenessVerdictOf(200, ok(0.87, 0.05, ['UNTRUSTED_DEVICE']));
    expect(adviceFor(rejected)).toEqual(['Câmera não confiável (virtual ou emulada): use a câmera física do aparelho.']);
    const bad = livenessVerdictOf(400, { status: 400, message: 'Failed to parse file', error_code: 'UNKNOWN' });
    expect(bad).toMatchObject({ live: false, errorCode: 'UNKNOWN', message: 'Failed to parse file' });
    expect(adviceFor(bad)).toEqual(['A captura não pôde ser lida: tente de novo.']);
    const unauthorized = livenessVerdictOf(401, { message: 'Unauthorized' });
    expect(unauthorized).toMatchObject({ live: false, message: 'Unauthorized' });
    expect(adviceFor(unauthorized).length).toBe(1);
    expect(adviceFor(livenessVerdictOf(200, ok(0.9, 0.9, [])))).toEqual([]);
  });
});
