/**
 * The grating survey is taken lazily (index.ts recognizeImage; round 27, S): only a page whose first
 * reading found fewer than MIN_LABELS labels is surveyed for moiré (preprocess.ts surveyCardGrating), and
 * the survey gives exactly what the first preparation's `surveyGrating` gave (the same scaled crop).
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { recognizeImage } from '../../src/ocr/index.js';
import { GRATING_PEAK } from '../../src/ocr/grating.js';
import { prepareImage, surveyCardGrating } from '../../src/ocr/preprocess.js';
import type { OcrWord } from '../../src/ocr/words.js';
import { drawn } from './drawn-word.js';
import { orientedFrame } from './oriented-frame.js';

const word = (t: string, x: number, y: number, conf = 0.95): OcrWord => ({ text: t, conf, x0: x, y0: y, x1: x + 12 * t.length, y1: y + 20 });
/** Five labels and many sure words: a card read well. */
const WELL = [word('NOME', 30, 60), word('CPF', 360, 220), word('DATA NASCIMENTO', 620, 220), word('VALIDADE', 360, 560), word('Nº REGISTRO', 30, 620),
  ...Array.from({ length: 30 }, (_, i) => word(`WORD${i}`, 30 + 160 * (i % 5), 300 + 40 * Math.floor(i / 5)))];
/** One unsure label and a few sure words: a page short of labels (the orientation search and the survey's case). */
const POOR = [word('CPF', 360, 220, 0.6), word('ABCD', 30, 60), word('EFGH', 200, 60)];

/** A survey that counts its calls and answers `peak`. */
function counting(peak: number): { survey: (b: Uint8Array) => Promise<number>; calls: number } {
  const s = { calls: 0, survey: async (): Promise<number> => { s.calls++; return peak; } };
  return s;
}

describe('the grating survey, lazily (index.ts recognizeImage)', () => {
  it('a page read with MIN_LABELS labels is never surveyed nor prepared with surveyGrating', async () => {
    const f = orientedFrame((code) => (code === 0 ? WELL : []));
    const s = counting(10 * GRATING_PEAK);
    await recognizeImage([f.rec], new Uint8Array(8), f.prepare, s.survey);
    expect(s.calls).toBe(0);
    expect(f.calls.some((o) => o.surveyGrating || o.degrate)).toBe(false);
  });

  it('a page short of labels is surveyed once, and prepared with the grating notched out when one stands out', async () => {
    const f = orientedFrame((code) => (code === 0 ? POOR : []));
    const s = counting(GRATING_PEAK);
    await recognizeImage([f.rec], new Uint8Array(8), f.prepare, s.survey);
    expect(s.calls).toBe(1);
    expect(f.calls[0].surveyGrating).toBeUndefined();
    expect(f.calls.some((o) => o.degrate)).toBe(true);
  });

  it('a page short of labels without a grating is surveyed and not notched', async () => {
    const f = orientedFrame((code) => (code === 0 ? POOR : []));
    const s = counting(GRATING_PEAK * 0.5);
    await recognizeImage([f.rec], new Uint8Array(8), f.prepare, s.survey);
    expect(s.calls).toBe(1);
    expect(f.calls.some((o) => o.degrate)).toBe(false);
  });

  it('without a survey function, surveys through a preparation with surveyGrating (only when short of labels)', async () => {
    const poor = orientedFrame((code) => (code === 0 ? POOR : []));
    await recognizeImage([poor.rec], new Uint8Array(8), poor.prepare);
    expect(poor.calls.filter((o) => o.surveyGrating).length).toBe(1);
    const well = orientedFrame((code) => (code === 0 ? WELL : []));
    await recognizeImage([well.rec], new Uint8Array(8), well.prepare);
    expect(well.calls.some((o) => o.surveyGrating)).toBe(false);
  });
});

describe('preprocess.ts surveyCardGrating', () => {
  it('gives exactly the first preparation\'s surveyGrating peak, with and without a grating', async () => {
    const { g } = await drawn('KOVACEVIC 172.431.645-10', 'DejaVu Sans', 30);
    const h = g.height * 10, clean = new Uint8Array(g.width * h).fill(255);
    for (let k = 0; k < 3; k++) clean.set(g.data, k * g.data.length);
    // final20's moiré: each pixel times 1 + 0.15 sin(phi), a 7 px grating.
    const grated = clean.map((v, i) => Math.max(0, Math.min(255, Math.round(v * (1 + 0.15 * Math.sin((2 * Math.PI * ((i % g.width) * 0.45 + Math.floor(i / g.width) * 0.89)) / 7))))));
    for (const data of [grated, clean]) {
      const png = await sharp(Buffer.from(data), { raw: { width: g.width, height: h, channels: 1 } }).png().toBuffer();
      const surveyed = await surveyCardGrating(png);
      expect(surveyed).toBe((await prepareImage(png, { surveyGrating: true })).grating);
      if (data === grated) expect(surveyed).toBeGreaterThanOrEqual(GRATING_PEAK);
      else expect(surveyed).toBeLessThan(GRATING_PEAK);
    }
  });
});
