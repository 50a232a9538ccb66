/**
 * Issue #17, hard photographs: a dark or blurred page read poorly is read a second time with another
 * preparation (second-read.ts), the two readings merged field by field; a dark page's second
 * preparation takes the sensor noise out before the stretch (preprocess.ts denoise).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from '../../src/ocr/engine.js';
import { prepareImage } from '../../src/ocr/preprocess.js';
import type { QualityMetrics } from '../../src/ocr/quality.js';
import { BLURRED, DARK_CONTRAST, MERGE_MARGIN, mergeReadings, POOR_READING, readingMisses, secondRead } from '../../src/ocr/second-read.js';

const SURE: Record<string, string> = {
  nome_completo: 'ANA MARIA SOUZA', cpf: '529.982.247-25', rg: '123456789', data_nascimento: '01/02/1980', numero_cnh: '12345678900',
  categoria: 'B', data_validade: '01/02/2030', data_emissao: '01/02/2020', data_primeira_habilitacao: '01/02/2000', local_nascimento: 'RECIFE, PE',
  nome_pai: 'JOSE SOUZA', nome_mae: 'MARIA SOUZA', uf: 'PE', observacoes: '', orgao_expedidor: 'SSP',
};
/** Every field read at `conf` (observacoes empty), with `changes` on top. */
function campos(conf: number, changes: Partial<Record<CnhFieldName, CnhField>> = {}): Record<CnhFieldName, CnhField> {
  const out = Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: SURE[k], confianca: SURE[k] ? conf : 0 }])) as Record<CnhFieldName, CnhField>;
  return { ...out, ...changes };
}
const quality = (sharpness: number, contrast: number): QualityMetrics => ({ grade: 'boa', resolutionPx: 800, sharpness, contrast });

describe('second reading of a poor hard page (second-read.ts)', () => {
  it('counts a missing core field as 1 and an unsure one as 0.5', () => {
    expect(readingMisses(campos(0.95))).toBe(0);
    expect(readingMisses(campos(0.95, { cpf: { valor: '', confianca: 0 } }))).toBe(1);
    expect(readingMisses(campos(0.95, { cpf: { valor: '', confianca: 0 }, rg: { valor: '1', confianca: 0.5 } }))).toBe(1.5);
    // observacoes and the other fields outside the core do not count.
    expect(readingMisses(campos(0.95, { observacoes: { valor: '', confianca: 0 }, orgao_expedidor: { valor: '', confianca: 0 } }))).toBe(0);
  });

  it('reads a dark page again denoised and a blurred one at full width, only when the first reading was poor', () => {
    expect(secondRead(quality(60, DARK_CONTRAST - 30), POOR_READING)).toEqual({ prepare: { denoise: true }, fullWidth: false });
    expect(secondRead(quality(BLURRED - 20, 170), POOR_READING)).toEqual({ prepare: { sharpenSigma: 2, thickenThin: true }, fullWidth: true });
    expect(secondRead(quality(60, DARK_CONTRAST - 30), POOR_READING - 0.5)).toBeNull();
    expect(secondRead(quality(BLURRED - 20, 170), 0)).toBeNull();
    // A sharp, well-lit page read poorly: its local contrast (a glare's veil).
    expect(secondRead(quality(BLURRED + 20, 170), 5)).toEqual({ prepare: { localContrast: true }, fullWidth: false });
  });

  it('merges field by field: the second value where the first is missing or less sure, never an empty one', () => {
    const first = campos(0.9, { cpf: { valor: '', confianca: 0, valido: false }, rg: { valor: '12345', confianca: 0.5 } });
    const second = campos(0.7, { cpf: { valor: '529.982.247-25', confianca: 0.95, valido: true }, rg: { valor: '123456789', confianca: 0.93 }, nome_mae: { valor: '', confianca: 0 } });
    const m = mergeReadings(first, second);
    expect(m.cpf).toEqual({ valor: '529.982.247-25', confianca: 0.95, valido: true });
    expect(m.rg.valor).toBe('123456789');
    expect(m.nome_mae).toEqual(first.nome_mae);
    expect(m.nome_completo).toEqual(first.nome_completo);
  });

  it('keeps a first value against another one only a little surer, and takes the surer of two equal ones', () => {
    const first = campos(0.9, { nome_pai: { valor: 'ARLINDO DOS GODÓI BRUM', confianca: 0.77 }, cpf: { valor: '529.982.247-25', confianca: 0.75, valido: true } });
    const second = campos(0.9, { nome_pai: { valor: 'ARLINDO DOS GODÓ BRUM', confianca: 0.77 + MERGE_MARGIN - 0.02 }, cpf: { valor: '529.982.247-25', confianca: 0.79, valido: true } });
    const m = mergeReadings(first, second);
    expect(m.nome_pai.valor).toBe('ARLINDO DOS GODÓI BRUM');
    expect(m.cpf.confianca).toBe(0.79);
    second.nome_pai = { valor: 'ARLINDO DOS GODÓ BRUM', confianca: 0.77 + MERGE_MARGIN + 0.01 };
    expect(mergeReadings(first, second).nome_pai.valor).toBe('ARLINDO DOS GODÓ BRUM');
    // Never the first value cut short, however sure.
    first.observacoes = { valor: 'EAR A', confianca: 0.6 };
    second.observacoes = { valor: 'EAR', confianca: 0.95 };
    expect(mergeReadings(first, second).observacoes.valor).toBe('EAR A');
  });

  it('takes a name that is the first one with whole words before it, at least as sure, and no other longer name', () => {
    const first = campos(0.9, { nome_completo: { valor: 'PAES MONTENEGRO', confianca: 0.94 }, nome_pai: { valor: 'IVO LIMA', confianca: 0.9 } });
    const second = campos(0.9, { nome_completo: { valor: 'OSMAR PAES MONTENEGRO', confianca: 0.96 }, nome_pai: { valor: 'IVO LIMA', confianca: 0.9 } });
    expect(mergeReadings(first, second).nome_completo.valor).toBe('OSMAR PAES MONTENEGRO');
    second.nome_completo = { valor: 'OSMAR PAES MONTENEGRO', confianca: 0.93 };
    expect(mergeReadings(first, second).nome_completo.valor).toBe('PAES MONTENEGRO');
    second.nome_completo = { valor: 'OSMARPAES MONTENEGRO', confianca: 0.99 };
    expect(mergeReadings(first, second).nome_completo.valor).toBe('PAES MONTENEGRO');
  });

  it('keeps "no remark" against a second reading\'s remark that is no restriction code, not against a code', () => {
    const first = campos(0.9, { observacoes: { valor: '', confianca: 0 } });
    const second = campos(0.9, { observacoes: { valor: 'NE', confianca: 0.5 } });
    expect(mergeReadings(first, second).observacoes.valor).toBe('');
    second.observacoes = { valor: 'EAR A', confianca: 0.5 };
    expect(mergeReadings(first, second).observacoes.valor).toBe('EAR A');
  });
});

describe('denoised preparation (preprocess.ts denoise)', () => {
  it('takes a dark photograph\'s speckle off the paper before the stretch', async () => {
    // A dark page (paper 70, ink 30) with strong noise and a row of letter-like blocks.
    const w = 1300, h = 820;
    const d = Buffer.alloc(w * h * 3);
    let seed = 7;
    const rnd = (): number => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const ink = y > 300 && y < 330 && x % 24 < 14 && x > 100 && x < 1200;
      const v = Math.max(0, Math.min(255, (ink ? 30 : 70) + (rnd() + rnd() + rnd() - 1.5) * 2 * 10));
      d.fill(v, 3 * (y * w + x), 3 * (y * w + x) + 3);
    }
    const png = await sharp(d, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();
    // Dark specks on the paper far from the letters (rows 500-800).
    const specks = async (denoise: boolean): Promise<number> => {
      const prep = await prepareImage(png, { denoise });
      const { data, info } = await sharp(prep.png).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
      let n = 0;
      for (let y = Math.round(info.height * 0.65); y < Math.round(info.height * 0.95); y++) for (let x = 0; x < info.width; x++) if (data[y * info.width + x] < 128) n++;
      return n;
    };
    const plain = await specks(false), clean = await specks(true);
    expect(plain).toBeGreaterThan(1000);
    expect(clean).toBeLessThan(plain / 4);
  });
});

describe('local contrast (veil.ts)', () => {
  it('stretches type under a glare\'s veil back to ink and leaves blank paper white', async () => {
    const { normaliseLocalContrast } = await import('../../src/ocr/veil.js');
    // Paper 235, ink 30, letters in rows; the right half under a veil of 70 % white (ink 188, paper 249).
    const w = 800, h = 400;
    const d = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const ink = y % 40 >= 20 && y % 40 < 34 && x % 12 < 8 && x > 20 && x < w - 20;
      const v = ink ? 30 : 235;
      d[y * w + x] = x >= w / 2 ? Math.round(v * 0.3 + 255 * 0.7) : v;
    }
    const inkAt = (x: number): number => d[25 * w + x];
    expect(inkAt(600)).toBeGreaterThan(180);
    normaliseLocalContrast(d, w, h);
    expect(inkAt(600)).toBeLessThan(40);
    expect(inkAt(96)).toBeLessThan(40);
    // Paper between the letter rows, veiled or not, stays light.
    expect(d[5 * w + 100]).toBeGreaterThan(220);
    expect(d[5 * w + 603]).toBeGreaterThan(220);
  });
});
