/**
 * Issue #17 part B: uneven light divided out before the card is looked for and before the contrast
 * stretch (light.ts, preprocess.ts), and diacritics put back only by rules of Portuguese spelling
 * (orthography.ts), with the value's confidence capped under the low-confidence line.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { dividePlane, flattenLight, framePlane, lightField, UNEVEN_FRAME, UNEVEN_LIGHT } from '../../src/ocr/light.js';
import { restoreDiacritics } from '../../src/ocr/orthography.js';
import { extractFields, fieldCheck, LOST_DIACRITIC_CAP, LOW_CONFIDENCE, restoreNames, scoreFields, type Draft } from '../../src/ocr/fields.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';
import { normalizeName } from '../../src/ocr/normalize.js';
import { prepareImage } from '../../src/ocr/preprocess.js';
import { generateCnh } from '../fixtures/cnh/index.js';

/** A page of paper 220 with rows of dark 'letters' (8 x 14 px blocks), darkened by `shade(x, y)` (1: none). */
function page(w: number, h: number, shade: (x: number, y: number) => number): Uint8Array {
  const d = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const ink = y % 40 >= 20 && y % 40 < 34 && x % 12 < 8 && x > 20 && x < w - 20;
    d[y * w + x] = Math.round((ink ? 40 : 220) * shade(x, y));
  }
  return d;
}
const pct = (d: Uint8Array, w: number, x0: number, x1: number, h: number, p: number): number => {
  const vs: number[] = [];
  for (let y = 0; y < h; y++) for (let x = x0; x < x1; x++) vs.push(d[y * w + x]);
  vs.sort((a, b) => a - b);
  return vs[Math.floor(p * (vs.length - 1))];
};

describe('uneven light (light.ts)', () => {
  it('divides a shadow across the page out: paper even again, ink still dark', () => {
    const w = 800, h = 400;
    const d = page(w, h, (x) => 1 - 0.45 * (x / w));
    expect(lightField(d, w, h).unevenness).toBeGreaterThan(UNEVEN_LIGHT);
    expect(pct(d, w, w - 100, w, h, 0.9)).toBeLessThan(140);
    expect(flattenLight(d, w, h).flattened).toBe(true);
    const left = pct(d, w, 0, 100, h, 0.9), right = pct(d, w, w - 100, w, h, 0.9);
    expect(Math.abs(left - right)).toBeLessThan(12);
    expect(pct(d, w, w - 100, w, h, 0.1)).toBeLessThan(left / 2);
  });

  it('leaves an evenly lit page unchanged', () => {
    const w = 800, h = 400;
    const d = page(w, h, () => 1);
    const before = Uint8Array.from(d);
    expect(flattenLight(d, w, h)).toEqual({ unevenness: expect.any(Number), flattened: false });
    expect(d).toEqual(before);
  });

  it('finds the light plane of a frame around a dark table, shadowed or not', () => {
    const w = 700, h = 500;
    const card = (x: number, y: number): boolean => x > 100 && x < 600 && y > 100 && y < 400;
    const frame = (shade: (x: number) => number): Uint8Array => {
      const d = page(w, h, (x) => shade(x));
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (!card(x, y)) d[y * w + x] = Math.round(35 * shade(x));
      return d;
    };
    expect(framePlane(frame(() => 1), w, h).spread).toBeLessThan(UNEVEN_FRAME);
    const shadowed = frame((x) => 1 - 0.4 * (x / w));
    const plane = framePlane(shadowed, w, h);
    expect(plane.spread).toBeGreaterThan(UNEVEN_FRAME);
    dividePlane(shadowed, w, h, 1, plane, 1);
    const left = pct(shadowed, w, 110, 200, 100, 0.9), right = pct(shadowed, w, 500, 590, 100, 0.9);
    expect(Math.abs(left - right)).toBeLessThan(12);
  });

  it('prepares a shadowed card photo with the shadow gone; an evenly lit one is not flattened', async () => {
    const doc = await generateCnh(7, { model: '2022', degraded: { rotateDeg: 2, photo: true, jpegQuality: 85 } });
    const m = await sharp(doc.bytes).metadata();
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${m.width}" height="${m.height}"><defs><linearGradient id="s" x1="0%" y1="0%" x2="100%" y2="0%"><stop offset="0" stop-color="#000" stop-opacity="0"/><stop offset="1" stop-color="#000" stop-opacity="0.45"/></linearGradient></defs><rect width="${m.width}" height="${m.height}" fill="url(#s)"/></svg>`;
    const shadowed = await sharp(doc.bytes).composite([{ input: Buffer.from(svg) }]).jpeg({ quality: 88 }).toBuffer();
    const even = await prepareImage(doc.bytes);
    expect(even.light.flattened).toBe(false);
    const prep = await prepareImage(shadowed);
    expect(Math.abs(prep.rotationDeg - even.rotationDeg)).toBeLessThan(1.5);
    expect(prep.width / prep.height).toBeCloseTo(even.width / even.height, 1);
    const { data, info } = await sharp(prep.png).raw().toBuffer({ resolveWithObject: true });
    const px = new Uint8Array(data.buffer, data.byteOffset, data.length);
    const q = Math.floor(info.width / 4);
    expect(Math.abs(pct(px, info.width, 0, q, info.height, 0.6) - pct(px, info.width, info.width - q, info.width, info.height, 0.6))).toBeLessThan(20);
  }, 30_000);
});

describe('diacritics put back by spelling rules (orthography.ts)', () => {
  it('restores word-final ÃO and the -ção cedilla, never -ÃES (Moraes, Arraes)', () => {
    expect(restoreDiacritics('JOAO DA SILVA').name).toBe('JOÃO DA SILVA');
    expect(restoreDiacritics('MARIA DA CONCEICAO').name).toBe('MARIA DA CONCEIÇÃO');
    expect(restoreDiacritics('ASSUNCAO').name).toBe('ASSUNÇÃO');
    expect(restoreDiacritics('CONCEICÃO').name).toBe('CONCEIÇÃO');
    expect(restoreDiacritics('LUIZ MORAES ARRAES').name).toBe('LUIZ MORAES ARRAES');
    expect(restoreDiacritics('IRMAOS').name).toBe('IRMÃOS');
    expect(restoreDiacritics('MÓNICA ÁNGELA ANTÓNIO').name).toBe('MÔNICA ÂNGELA ANTÔNIO');
    expect(restoreDiacritics('BELÉM PARABÉNS').name).toBe('BELÉM PARABÉNS');
    expect(restoreDiacritics('JOSÉ MÁRCIA').restored).toEqual([]);
  });

  it('leaves what spelling does not decide: C after L or R, -OES, the contraction AO, accents as read', () => {
    expect(restoreDiacritics('FALCAO').name).toBe('FALCÃO');
    expect(restoreDiacritics('PORCAO').name).toBe('PORCÃO');
    expect(restoreDiacritics('SIMOES').name).toBe('SIMOES');
    expect(restoreDiacritics('ANA AO').name).toBe('ANA AO');
    expect(restoreDiacritics('JOSE ARAUJO').restored).toEqual([]);
    expect(restoreDiacritics('JOÃO SEBASTIÃO').restored).toEqual([]);
  });

  it('a name with a diacritic put back ends under the low-confidence line; untouched names keep theirs', () => {
    const d: Record<string, Draft> = {
      nome_completo: { valor: 'JOAO ARAUJO LIMA', conf: 0.96 },
      nome_mae: { valor: 'ANA LIMA', conf: 0.95 },
      local_nascimento: { valor: 'SAO PAULO, SP', conf: 0.9 },
    };
    restoreNames(d);
    const campos = scoreFields(d);
    expect(campos.nome_completo.valor).toBe('JOÃO ARAUJO LIMA');
    expect(campos.nome_completo.confianca).toBeLessThanOrEqual(LOST_DIACRITIC_CAP);
    expect(campos.nome_completo.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(campos.local_nascimento.valor).toBe('SÃO PAULO, SP');
    expect(campos.local_nascimento.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(campos.nome_mae).toEqual({ valor: 'ANA LIMA', confianca: 0.95 });
  });

  it('a surname read without its accent in one name takes the spelling another name on the card has, under 0.8', () => {
    const d: Record<string, Draft> = {
      nome_completo: { valor: 'GISELE ARAUJO MOREIRA', conf: 0.96 },
      nome_pai: { valor: 'PAULO MOREIRA', conf: 0.95 },
      nome_mae: { valor: 'LUZIA ARAÚJO MOREIRA', conf: 0.93 },
    };
    restoreNames(d);
    const campos = scoreFields(d);
    expect(campos.nome_completo.valor).toBe('GISELE ARAÚJO MOREIRA');
    expect(campos.nome_completo.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(campos.nome_mae).toEqual({ valor: 'LUZIA ARAÚJO MOREIRA', confianca: 0.93 });
    expect(campos.nome_pai).toEqual({ valor: 'PAULO MOREIRA', confianca: 0.95 });
  });

  it('names: marks at a word\'s edge are dropped, inner apostrophes kept; a Q outside QU + vowel fails the check', () => {
    expect(normalizeName("'AMANDA CONCEIÇÃO DOS VIEIRA-")).toBe('AMANDA CONCEIÇÃO DOS VIEIRA');
    expect(normalizeName("ANA D'ÁVILA SANT'ANA")).toBe("ANA D'ÁVILA SANT'ANA");
    expect(fieldCheck('nome_completo', 'AMANDA MARQU')).toBe(false);
    expect(fieldCheck('nome_mae', 'ANA QARVALHO LIMA')).toBe(false);
    expect(fieldCheck('nome_completo', 'MARIA QUEIROZ MARQUES')).toBeUndefined();
    expect(fieldCheck('nome_pai', 'JOSÉ QUÉSIA LIMA')).toBeUndefined();
    expect(scoreFields({ nome_completo: { valor: 'AMANDA MARQU', conf: 0.95 } }).nome_completo.confianca).toBeLessThan(LOW_CONFIDENCE);
    // Remarks that are not codes fail their check; codes keep the recogniser's confidence.
    expect(scoreFields({ observacoes: { valor: 'FARA', conf: 0.91 } }).observacoes.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(scoreFields({ observacoes: { valor: 'EAR A', conf: 0.91 } }).observacoes.confianca).toBe(0.91);
  });
});

describe('issuing state from the place of issue', () => {
  const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
  const line = (text: string, x0: number, y0: number, h: number): OcrWord[] => {
    let x = x0;
    return text.split(' ').map((t) => { const word = w(t, x, y0, h); x = word.x1 + h * 0.4; return word; });
  };
  const read = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

  it('with the DETRAN line missed, uf is the state of LOCAL (not the identity\'s), under 0.8', () => {
    const front = [w('NOME', 100, 40, 12), ...line('LIVIA PEREIRA MARQUES', 100, 56, 18), ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 100, 12),
      ...line('881973916 SSP PR', 100, 116, 18), ...line('DATA NASCIMENTO', 400, 160, 12), ...line('21/06/1970', 400, 176, 18)];
    const uf = read([...front, w('LOCAL', 100, 900, 12), ...line('OLINDA, PE', 100, 916, 18)]).uf;
    expect(uf.valor).toBe('PE');
    expect(uf.confianca).toBeGreaterThan(0);
    expect(uf.confianca).toBeLessThan(LOW_CONFIDENCE);
  });
});
