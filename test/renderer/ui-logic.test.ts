import { describe, expect, it } from 'vitest';
import { assessFace, GUIDE } from '../../renderer/capture/face-guide.js';
import { confidenceBand } from '../../renderer/src/cnh-bands.js';
import { confidenceWord } from '../../renderer/src/confidence.js';
import { en, enErrors } from '../../renderer/src/i18n/en.js';
import { ptBR, ptBRErrors } from '../../renderer/src/i18n/pt-BR.js';
import { ERROR_CATALOGUE } from '../../src/runtime/errors.js';

describe('kiosk messages', () => {
  it('has a pt-BR and an English message for every stable error code of the station', () => {
    for (const code of Object.keys(ERROR_CATALOGUE)) {
      expect(ptBRErrors[code], `pt-BR message for ${code}`).toBeTruthy();
      expect(enErrors[code], `English message for ${code}`).toBeTruthy();
    }
  });

  it('translates every UI key into English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ptBR).sort());
    for (const [key, text] of Object.entries(en)) expect(text, key).not.toBe('');
  });
});

describe('CNH confidence bands (spec)', () => {
  it('maps 0.9-1.0 very high, 0.8-0.89 high, 0.7-0.79 medium, below 0.7 low', () => {
    expect([1, 0.9, 0.89, 0.8, 0.79, 0.7, 0.69, 0].map(confidenceBand)).toEqual([
      'veryHigh', 'veryHigh', 'high', 'high', 'medium', 'medium', 'low', 'low',
    ]);
  });
});

describe('face guide feedback', () => {
  const frame = { widthPx: 640, heightPx: 480 };
  const box = (cx: number, cy: number, w: number) => ({ x: cx - w / 2, y: cy - w / 2, width: w, height: w * 1.2, score: 0.9 });
  it('asks for light first, then one centred face of the right size', () => {
    expect(assessFace([box(320, 216, 200)], frame, GUIDE.minLuma - 1)).toBe('tooDark');
    expect(assessFace([], frame, 120)).toBe('noFace');
    expect(assessFace([box(200, 216, 180), box(440, 216, 170)], frame, 120)).toBe('manyFaces');
    expect(assessFace([box(320, 216, 80)], frame, 120)).toBe('tooFar');
    expect(assessFace([box(320, 216, 450)], frame, 120)).toBe('tooClose');
    expect(assessFace([box(500, 216, 200)], frame, 120)).toBe('offCentre');
    expect(assessFace([box(320, 216, 200)], frame, 120)).toBe('good');
    expect(assessFace([box(320, 216, 200), box(80, 80, 40)], frame, 120)).toBe('good');
  });
});

describe('confidence word of a decision', () => {
  it('fingerprint scores (open scale): the ratio to the threshold', () => {
    expect(confidenceWord(31.6, 17.4, true)).toBe('high');
    expect(confidenceWord(20, 17.4, true)).toBe('medium');
    expect(confidenceWord(18, 17.4, true)).toBe('low');
    expect(confidenceWord(5, 17.4, false)).toBe('high');
  });

  it('face scores (cosine scale): an identical photo is high, a match just past the FAR 1e-4 threshold medium', () => {
    // The ratio alone called a score of 1.0 at threshold 0.8505 only "medium" (1.18 < 1.3).
    expect(confidenceWord(1.0, 0.8505, true, 'cosine')).toBe('high');
    expect(confidenceWord(0.88, 0.8505, true, 'cosine')).toBe('medium');
    expect(confidenceWord(0.86, 0.8505, true, 'cosine')).toBe('low');
    expect(confidenceWord(0.3, 0.8505, false, 'cosine')).toBe('high');
    expect(confidenceWord(0.8, 0.8505, false, 'cosine')).toBe('low');
    expect(confidenceWord(0.9, undefined, true, 'cosine')).toBeUndefined();
  });
});
