import { describe, expect, it } from 'vitest';
import { cardWordsOnly } from '../../src/ocr/boilerplate.js';
import { fieldCheck, scoreFields, type Draft } from '../../src/ocr/checks.js';
import { CUT_CODE_CAP, cutRemarkCode } from '../../src/ocr/codes.js';
import type { CnhFieldName } from '../../src/ocr/engine.js';
import { finishNames } from '../../src/ocr/name-finish.js';
import { unelidedApostrophes } from '../../src/ocr/name-marks.js';
import { lostInnerMark, normalizeName } from '../../src/ocr/normalize.js';

/** Drafts of the three names at `conf`, finished as fields.ts does, and scored. */
function finished(names: Partial<Record<'nome_completo' | 'nome_pai' | 'nome_mae', string>>, textLayer: boolean, conf = 0.95) {
  const d: Partial<Record<CnhFieldName, Draft>> = {};
  for (const [k, v] of Object.entries(names)) d[k as CnhFieldName] = { valor: v, conf };
  finishNames(d, textLayer, []);
  return scoreFields(d, textLayer);
}

describe("the names' letters kept from a text layer (normalize.ts NAME_LETTERS, twenty-sixth round)", () => {
  it.each([
    ['KAʻIMI KEALOHA AKAKA', 'KAʻIMI KEALOHA AKAKA'],
    ['kaʻiulani utsi kahele', 'KAʻIULANI UTSI KAHELE'],
    ['LOKELANI KAMAKAʻALA ƊANTSOHO', 'LOKELANI KAMAKAʻALA ƊANTSOHO'],
    ['ʻAKAKA PUALANI', 'ʻAKAKA PUALANI'],
    // Hausa's hooked letters, Sami's eng and barred T, Akan's open E and O, upper and lower case.
    ['ƁALARABE ƊANLADI ƘASIMU', 'ƁALARABE ƊANLADI ƘASIMU'],
    ['ɓalarabe ɗanladi ƙasimu', 'ƁALARABE ƊANLADI ƘASIMU'],
    ['RÁŊŊE GUOŦŦÁ', 'RÁŊŊE GUOŦŦÁ'],
    ['ráŋŋe guoŧŧá', 'RÁŊŊE GUOŦŦÁ'],
    ['ƐSI ƆFORI AKOSUA', 'ƐSI ƆFORI AKOSUA'],
    ['ɛsi ɔfori akosua', 'ƐSI ƆFORI AKOSUA'],
    // The saltillo (Latin Extended-D) is a letter too, uppercased like any.
    ['TAꞋAN LOPES', 'TAꞋAN LOPES'],
    ['taꞌan lopes', 'TAꞋAN LOPES'],
  ])('normalizeName(%s) = %s', (raw, want) => {
    expect(normalizeName(raw)).toBe(want);
  });

  it('still writes apostrophe look-alikes as "\'" and other marks as a space', () => {
    expect(normalizeName('D’ÁVILA SANTʼANNA')).toBe("D'ÁVILA SANT'ANNA");
    expect(normalizeName('ANNE/MARIE DUPONT')).toBe('ANNE MARIE DUPONT');
    expect(normalizeName('JOSÉ˜MARIA')).toBe('JOSÉ MARIA');
  });

  it('a word with the ʻokina holds no mark the normalisation drops', () => {
    expect(lostInnerMark('KAʻIMI')).toBe(false);
    expect(lostInnerMark('HAWAIʻI')).toBe(false);
    expect(lostInnerMark('ANNE/MARIE')).toBe(true);
  });

  it("a text layer's name with the ʻokina passes its check and stays sure", () => {
    expect(fieldCheck('nome_completo', 'KAʻIULANI UTSI KAHELE', true)).toBeUndefined();
    const out = finished({ nome_completo: 'KAʻIULANI UTSI KAHELE', nome_pai: 'ƁALARABE KAMAKAʻALA ƊANGALADIMA' }, true, 1);
    expect(out.nome_completo.confianca).toBe(1);
    expect(out.nome_pai.confianca).toBe(1);
  });
});

describe("an apostrophe that elides nothing in an image's name (name-marks.ts unelidedApostrophes)", () => {
  it.each([
    ["KA'IMI KEALOHA AKAKA", ["KA'IMI"]],
    ["LOKELANI KAMAKA'ALA DANTSOHO", ["KAMAKA'ALA"]],
    ["KA'ŌPUIKI KĒHAU", ["KA'ŌPUIKI"]],
    ["KEOLA HAWAI'I", ["HAWAI'I"]],
    ["KA'AIHUE KA'EO", ["KA'AIHUE", "KA'EO"]],
  ])('%s: %j', (valor, words) => {
    expect(unelidedApostrophes(valor)).toEqual(words);
  });

  it.each([
    "MARIA D'ÁVILA SOUZA", "PEDRO SANT'ANNA LIMA", "JOSÉ DALL'AGNOL", "ANA D'OESTE", "SEAN O'BRIEN", "JOANA D'ARC", "LUCA DELL'ACQUA",
    "O'ANNA SILVA", "MARIA DA SILVA",
  ])('%s: an elision or no apostrophe, none', (valor) => {
    expect(unelidedApostrophes(valor)).toEqual([]);
  });

  it('doubts such a name read from an image, not an elision, and not a text layer', () => {
    const img = finished({ nome_completo: "KA'IMI KEALOHA AKAKA", nome_pai: "PEDRO SANT'ANNA LIMA" }, false);
    expect(img.nome_completo.valor).toBe("KA'IMI KEALOHA AKAKA");
    expect(img.nome_completo.confianca).toBeLessThan(0.8);
    expect(img.nome_pai.confianca).toBeGreaterThanOrEqual(0.8);
    const layer = finished({ nome_completo: "KA'IMI KEALOHA AKAKA" }, true, 1);
    expect(layer.nome_completo.confianca).toBe(1);
  });
});

describe("a name made only of the card's print and the identity line's codes (boilerplate.ts cardWordsOnly)", () => {
  it.each(['SESP SE', 'SSP SP', 'DETRAN RJ', 'SDS PE', 'SESP', 'DETRAN', 'NOME SSP'])('%s: dropped', (valor) => {
    expect(cardWordsOnly(valor)).toBe(true);
    expect(scoreFields({ nome_completo: { valor, conf: 0.93 } }).nome_completo.valor).toBe('');
  });

  it.each(['MARIA DA SILVA', 'JOSÉ SE SOUZA', 'MA PA', 'RIO BRANCO', 'DETRAN SILVA', 'KEOLA AKAKA', 'PAULO DE TARSO'])('%s: kept', (valor) => {
    expect(cardWordsOnly(valor)).toBe(false);
  });

  it('leaves the issuing body its field', () => {
    expect(scoreFields({ orgao_expedidor: { valor: 'SESP', conf: 0.93 } }).orgao_expedidor.valor).toBe('SESP');
  });
});

describe('remarks of a lone letter that begins or ends a longer code (codes.ts cutRemarkCode)', () => {
  it('doubts a lone R (EAR cut from the left) as it doubts a lone E', () => {
    for (const r of ['R', 'E', 'A R']) expect(cutRemarkCode(r), r).toBe(true);
    for (const r of ['A', 'D', 'F', 'EAR', 'EAR A']) expect(cutRemarkCode(r), r).toBe(false);
    expect(scoreFields({ observacoes: { valor: 'R', conf: 0.92 } }).observacoes.confianca).toBe(CUT_CODE_CAP);
    expect(scoreFields({ observacoes: { valor: 'EAR', conf: 0.92 } }).observacoes.confianca).toBeGreaterThanOrEqual(0.8);
  });
});
