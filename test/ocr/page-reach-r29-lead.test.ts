import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { readPdf } from '../../src/ocr/input.js';
import { pageValueReach, VALUE_REACH } from '../../src/ocr/value-place.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';
import { generateWidened } from '../fixtures/cnh/widened.js';

const fieldsOf = (words: OcrWord[], textLayer: boolean) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '), textLayer).campos;

describe('pageValueReach: how far under its label a value may lie on this page', () => {
  it('is the fixed reach on a page whose values sit at the usual gap, or with under 3 gaps', () => {
    expect(pageValueReach([0.8, 1.0, 1.2, 1.4, 1.5])).toBe(VALUE_REACH);
    expect(pageValueReach([2.1, 2.2, 2.3])).toBe(VALUE_REACH);
    expect(pageValueReach([3.3, 3.4])).toBe(VALUE_REACH);
    expect(pageValueReach([])).toBe(VALUE_REACH);
  });
  it('grows with the page\'s median gap, and no further than 4.2 label heights', () => {
    expect(pageValueReach([2.5, 2.6, 2.8, 2.9, 3.0])).toBeCloseTo(4.0, 5);
    expect(pageValueReach([2.75, 3.08, 3.17, 3.28, 3.38])).toBe(4.2);
    expect(pageValueReach([3.9, 4.0, 4.1, 4.2])).toBe(4.2);
  });
});

describe('a value layer printed low: the name and the parents past the fixed reach (final27 #85)', () => {
  // final27 #85: an older card's CNH-e with a text layer, its values 2.75-3.38 label heights under their labels,
  // the name 3.58 under NOME and the mother's line 3.70 under FILIAÇÃO. The old reader gave the name "" at 0.
  it('reads the name from the text layer, exact and sure', async () => {
    const doc = await generateWidened('final27', 85);
    const pages = await readPdf(doc.bytes);
    expect(pages[0].kind).toBe('text');
    const words = (pages[0] as { words: OcrWord[] }).words;
    const campos = fieldsOf(words, true);
    expect(campos.nome_completo.valor).toBe(doc.truth.nome_completo);
    expect(campos.nome_completo.confianca).toBeGreaterThanOrEqual(0.8);
    expect(campos.nome_mae.valor).toBe(doc.truth.nome_mae);
    // Moved up to the usual gap (every word 0.5 label heights higher), the page reads as it did.
    const h = words.find((x) => x.text === 'NOME')!;
    const shift = 0.5 * (h.y1 - h.y0);
    const nameTop = words.find((x) => x.text === 'ADALGISO')!.y0;
    const raised = words.map((x) => (x.y0 >= nameTop - 1 ? { ...x, y0: x.y0 - shift, y1: x.y1 - shift } : x));
    expect(fieldsOf(raised, true).nome_completo.valor).toBe(doc.truth.nome_completo);
  }, 60_000);
  it('takes no line beyond the fixed reach on a page whose values sit at the usual gap', () => {
    const w = (text: string, x0: number, y0: number, x1: number, y1: number): OcrWord => ({ text, conf: 0.95, x0, y0, x1, y1 });
    const lh = 18;
    const label = (text: string, x: number, y: number) => w(text, x, y, x + text.length * 12, y + lh);
    const value = (text: string, x: number, y: number) => w(text, x, y, x + text.length * 16, y + 1.5 * lh);
    // Labels with values 2.5 label heights under them; under NOME only a line 3.7 label heights down.
    const words = [
      label('NOME', 200, 100), value('JOAO', 190, 100 + lh + 3.7 * lh), value('SILVA', 290, 100 + lh + 3.7 * lh),
      label('CPF', 200, 400), value('529.982.247-25', 190, 400 + lh + 2.5 * lh),
      label('VALIDADE', 600, 400), value('17/01/2028', 590, 400 + lh + 2.5 * lh),
      label('DATA', 900, 400), label('NASCIMENTO', 960, 400), value('19/07/1996', 890, 400 + lh + 2.5 * lh),
    ];
    expect(fieldsOf(words, true).cpf.valor).toBe('529.982.247-25');
    expect(fieldsOf(words, true).nome_completo.valor).toBe('');
  });
});
