import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldCheck, scoreFields, type Draft } from '../../src/ocr/checks.js';
import type { CnhFieldName } from '../../src/ocr/engine.js';
import { createCnhReader, type CnhReader } from '../../src/ocr/index.js';
import { finishNames } from '../../src/ocr/name-finish.js';
import { ELL_SPLIT, layerMarkLost } from '../../src/ocr/name-marks.js';
import { innerMarkRuns, lostInnerMark, normalizeName } from '../../src/ocr/normalize.js';
import { toPhrase, type OcrWord } from '../../src/ocr/words.js';
import { generateWidened } from '../fixtures/cnh/widened.js';

const w = (text: string, x0: number): OcrWord => ({ text, conf: 1, x0, y0: 100, x1: x0 + 20 * text.length, y1: 120 });
const line = (...texts: string[]) => toPhrase(texts.map((t, i) => w(t, 10 + 300 * i)));
const finished = (d: Partial<Record<CnhFieldName, Draft>>, textLayer: boolean, phrases = [line('X')]) => {
  finishNames(d, textLayer, phrases);
  return scoreFields(d, textLayer);
};

describe("Catalan's middle dot of L·L kept in a name (normalize.ts normalizeName; twenty-fifth round)", () => {
  it('keeps U+00B7 between two L, writes it as a space elsewhere', () => {
    expect(normalizeName('MARCEL·LÍ ENEKO KURUSŨ GIRALT')).toBe('MARCEL·LÍ ENEKO KURUSŨ GIRALT');
    expect(normalizeName('estel·la meritxell')).toBe('ESTEL·LA MERITXELL');
    expect(normalizeName('JOSÉ·MARIA SILVA')).toBe('JOSÉ MARIA SILVA');
    expect(normalizeName('·MARIA SILVA·')).toBe('MARIA SILVA');
    // Apostrophes and hyphens as before.
    expect(normalizeName('JOANA D’ÁVILA ANA-LÚCIA')).toBe("JOANA D'ÁVILA ANA-LÚCIA");
  });

  it('a name with L·L passes its check, from a text layer and from an image', () => {
    expect(fieldCheck('nome_pai', 'MARCEL·LÍ ENEKO KURUSŨ GIRALT', true)).toBeUndefined();
    expect(fieldCheck('nome_mae', 'ESTEL·LA MERITXELL CASALS', false)).toBeUndefined();
  });

  it('lostInnerMark: a mark between two letters that the name alphabet drops', () => {
    expect(lostInnerMark('MARCEL·LÍ')).toBe(false);
    expect(lostInnerMark("D'ÁVILA")).toBe(false);
    expect(lostInnerMark('D’ÁVILA')).toBe(false);
    expect(lostInnerMark('ANA-LÚCIA')).toBe(false);
    expect(lostInnerMark('MARCEL\u2027LÍ')).toBe(true);
    expect(lostInnerMark('ANNE/MARIE')).toBe(true);
    expect(lostInnerMark('JOSÉ·MARIA')).toBe(true);
    expect(lostInnerMark('SILVA,')).toBe(false);
    expect(lostInnerMark('12/03/1990')).toBe(false);
    expect(innerMarkRuns('MARCEL\u2027LÍ')).toEqual(['MARCEL', 'LÍ']);
    expect(innerMarkRuns('a/b/c')).toEqual(['A', 'B', 'B', 'C']);
    expect(innerMarkRuns('SILVA')).toEqual([]);
  });
});

describe("a text layer's mark the name could not keep doubts it (name-marks.ts layerMarkLost; twenty-fifth round)", () => {
  it('a name whose word lost a mark inside it is under the line; one without is sure', () => {
    const lost = line('ANNE/MARIE', 'DUPONT');
    expect(layerMarkLost('ANNE MARIE DUPONT', [lost])).toBe(true);
    expect(layerMarkLost('ANNE MARIE DUPONT', [line('DETRAN/SP')])).toBe(false);
    // A particle or a two-letter run touching a label's mark says nothing of the name.
    expect(layerMarkLost('MARIA DOS SANTOS DE SOUZA', [line('DOC/DOS'), line('N/DE')])).toBe(false);
    const out = finished({ nome_completo: { valor: 'ANNE MARIE DUPONT', conf: 1 } }, true, [lost]);
    expect(out.nome_completo.confianca).toBeLessThan(0.8);
    const hyph = finished({ nome_completo: { valor: 'TUPÃRÕ MARCEL LÍ ROVIRA', conf: 1 } }, true, [line('TUPÃRÕ', 'MARCEL\u2027LÍ', 'ROVIRA')]);
    expect(hyph.nome_completo.confianca).toBeLessThan(0.8);
    const kept = finished({ nome_completo: { valor: 'TUPÃRÕ MARCEL·LÍ ROVIRA', conf: 1 } }, true, [line('TUPÃRÕ', 'MARCEL·LÍ', 'ROVIRA')]);
    expect(kept.nome_completo.confianca).toBe(1);
  });
});

describe("Catalan's L·L read as a hyphen or a space is doubted (name-marks.ts ELL_SPLIT; twenty-fifth round)", () => {
  it.each([
    ['AMAIA PETRONEL-LA AGIRRE PUIGVERT', true], // final23 #44 (0.904)
    ['MARCEL-LA ZUBIZARRETA MASPONS', true], // #75 (0.83)
    ['ESTEL-LA TORRENT GIRALT', true], // #80 (0.848)
    ['ARANDU MARCEL LI CALÇADA OTXOA', true], // #29 (0.818)
    ['MARCEL LÍ CODINA AGIRRE', true],
    ['ESTEL LA', true],
    ['MANUEL LIMA SOUZA', false],
    ['ISABEL LOPES', false],
    ['RAFAEL LUZ SOUZA', false],
    ['JEAN-LUC MERITXELL', false],
    ['MARCEL·LA COROMINES FERRÀ', false],
  ] as const)('%s: %s', (valor, doubted) => {
    expect(ELL_SPLIT.test(valor)).toBe(doubted);
    const out = finished({ nome_completo: { valor, conf: 0.92 } }, false);
    if (doubted) expect(out.nome_completo.confianca).toBeLessThan(0.8);
    else expect(out.nome_completo.confianca).toBeGreaterThanOrEqual(0.8);
  });

  it('a text layer hyphen between two L is the issuer\'s: not doubted', () => {
    const out = finished({ nome_completo: { valor: 'ESTEL-LA TORRENT GIRALT', conf: 1 } }, true, [line('ESTEL-LA', 'TORRENT', 'GIRALT')]);
    expect(out.nome_completo.confianca).toBe(1);
  });
});

let reader: CnhReader;
beforeAll(async () => {
  reader = await createCnhReader({ poolSize: 1, maxQueue: 4 });
});
afterAll(async () => {
  await reader?.close();
});

describe("a CNH-e's L·L read from its text layer (final23 #40, #41; twenty-fifth round)", () => {
  it.each([40, 41] as const)('final23 #%i: the names as the layer holds them, sure', async (index) => {
    const doc = await generateWidened('final23', index);
    expect(doc.condition).toBe('pdf-text');
    const res = await reader.read(doc.bytes);
    expect(res.origem_texto).toBe('pdf_texto');
    for (const k of ['nome_completo', 'nome_pai', 'nome_mae'] as const) {
      expect(res.campos[k].valor, k).toBe(doc.truth[k]);
      expect(res.campos[k].confianca, k).toBeGreaterThanOrEqual(0.8);
    }
  }, 60_000);
});
