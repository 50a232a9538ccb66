/**
 * Issue #17 scope 2, "never answer confidently with the wrong thing": causes of wrong values that came
 * with confianca >= 0.8 on the final3 part, each taken at its general cause.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractFields, LOW_CONFIDENCE, scoreFields } from '../../src/ocr/fields.js';
import { readPdf } from '../../src/ocr/input.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';

/** Words of `text` on one line from x = 100, `h` px type (0.6 h per character, 0.4 h spaces), all at `conf` unless `confs` names one. */
function line(text: string, y0: number, h: number, conf = 0.96, confs: Record<string, number> = {}): OcrWord[] {
  let x = 100;
  return text.split(' ').map((t) => {
    const w = { text: t, conf: confs[t] ?? conf, x0: x, y0, x1: x + t.length * h * 0.6, y1: y0 + h };
    x = w.x1 + h * 0.4;
    return w;
  });
}
const read = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

describe('a PDF text layer', () => {
  it('splits a label from the value printed edge to edge with it (one line of mupdf structured text)', async () => {
    // final3 #63: NOME at 6.1 pt ends at x = 220.4; the name (9.7 pt, 7 pt lower) starts at 214.9.
    const doc = await PDFDocument.create();
    const page = doc.addPage([595.28, 841.89]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const text = (t: string, x: number, y: number, size: number): void => page.drawText(t, { x, y: 841.89 - y, size, font });
    text('NOME', 202.1, 118.9, 6.1);
    text('SUELI NOVAIS SERPA', 214.9, 125.9, 9.7);
    text('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 200, 150, 6.1);
    text('018770078 SSP RN', 214, 160, 9.7);
    text('CPF', 200, 180, 6.1);
    text('870.238.758-16', 214, 190, 9.7);
    const pages = await readPdf(await doc.save());
    expect(pages[0].kind).toBe('text');
    if (pages[0].kind !== 'text') return;
    const words = pages[0].words;
    expect(words.map((w) => w.text)).toEqual(expect.arrayContaining(['NOME', 'SUELI']));
    const phrases = groupPhrases(words);
    const { campos } = extractFields(phrases, phrases.map((p) => p.text).join('\n'));
    expect(campos.nome_completo.valor).toBe('SUELI NOVAIS SERPA');
    expect(campos.cpf.valor).toBe('870.238.758-16');
  });
});

describe('a value is as sure as its weakest word', () => {
  it('one misread word (XTMENES 0.53) puts a name of sure words under the low-confidence line', () => {
    const words = [...line('2 e 1 NOME E SOBRENOME', 100, 12), ...line('ORLANDO DE PORTELA XTMENES', 118, 20, 0.96, { XTMENES: 0.53 })];
    const c = read(words);
    expect(c.nome_completo.valor).toBe('ORLANDO DE PORTELA XTMENES');
    expect(c.nome_completo.confianca).toBeLessThan(LOW_CONFIDENCE);
    // The same name read surely stays high.
    expect(read([...line('2 e 1 NOME E SOBRENOME', 100, 12), ...line('ORLANDO DE PORTELA XIMENES', 118, 20)]).nome_completo.confianca).toBeGreaterThanOrEqual(0.9);
  });

  it('counts only the value\'s own words: a date is not lowered by its town, a name not by a mark the normaliser drops', () => {
    const words = [...line('3 DATA, LOCAL E UF DE NASCIMENTO', 100, 12), ...line('09/10/1981, PORTO NACIONAL, TO', 118, 20, 0.96, { PORTO: 0.4 }),
      ...line('2 e 1 NOME E SOBRENOME', 40, 12), ...line('DIVA OLGA BRUM ARANTES |', 58, 20, 0.96, { '|': 0.2 })];
    const c = read(words);
    expect(c.data_nascimento.valor).toBe('09/10/1981');
    expect(c.data_nascimento.confianca).toBeGreaterThanOrEqual(0.9);
    expect(c.local_nascimento.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(c.nome_completo).toMatchObject({ valor: 'DIVA OLGA BRUM ARANTES' });
    expect(c.nome_completo.confianca).toBeGreaterThanOrEqual(0.9);
  });

  it('a lone glyph\'s lower confidence (the remark A after EAR) and an unsure DETRAN beside the state do not lower the value', () => {
    const words = [...line('12 OBSERVAÇÕES', 100, 12), ...line('EAR A', 118, 20, 0.93, { A: 0.72 }),
      ...line('DETRAN - AM', 300, 18, 0.96, { DETRAN: 0.43, '-': 0.5 })];
    const c = read(words);
    expect(c.observacoes.valor).toBe('EAR A');
    expect(c.observacoes.confianca).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
    expect(c.uf.valor).toBe('AM');
    expect(c.uf.confianca).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a value read short', () => {
  it('a name that ends in a particle fails the name check ("QUITÉRIA TELMA DO")', () => {
    const s = scoreFields({ nome_mae: { valor: 'QUITÉRIA TELMA DO', conf: 0.91 }, nome_pai: { valor: 'JOSÉ DOS SANTOS', conf: 0.91 } });
    expect(s.nome_mae.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(s.nome_pai.confianca).toBeGreaterThanOrEqual(0.9);
  });

  it('the mother\'s surname in a taller box (an accent) is read with her line, as the father\'s would be', () => {
    const jordao = { text: 'JORDÃO', conf: 0.96, x0: 583, y0: 667, x1: 687, y1: 705 };
    const words = [...line('FILIAÇÃO', 300, 16), ...line('ISAÍAS DA AMORIM ESCOBAR', 323, 21), { text: 'OLGA', conf: 0.92, x0: 100, y0: 355, x1: 174, y1: 375 },
      { text: 'PEDROSA', conf: 0.96, x0: 185, y0: 356, x1: 308, y1: 376 }, { ...jordao, x0: 324, x1: 428, y0: 347, y1: 385 }];
    const c = read(words);
    expect(c.nome_pai.valor).toBe('ISAÍAS DA AMORIM ESCOBAR');
    expect(c.nome_mae.valor).toBe('OLGA PEDROSA JORDÃO');
  });
});

describe('an identity number with a character too many', () => {
  // Registration number: 11 digits over 188 px (17.1 px a digit), as on final3 #8.
  const card = (rgWord: OcrWord): OcrWord[] => [...line('4c DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 12), rgWord,
    { text: 'SSP', conf: 0.96, x0: 270, y0: 118, x1: 320, y1: 141 }, { text: 'TO', conf: 0.96, x0: 330, y0: 118, x1: 360, y1: 141 },
    ...line('5 Nº REGISTRO', 200, 12), { text: '73287037530', conf: 0.92, x0: 100, y0: 218, x1: 288, y1: 241 }];

  it('fails its check when its box is too narrow for the digits read (a frame line read as a digit)', () => {
    const c = read(card({ text: '574055581]', conf: 0.77, x0: 100, y0: 118, x1: 249, y1: 141 }));
    expect(c.rg.valor).toBe('5740555811');
    expect(c.rg.confianca).toBeLessThan(LOW_CONFIDENCE);
  });

  it('passes when the box holds the digits read', () => {
    const c = read(card({ text: '574055581', conf: 0.96, x0: 100, y0: 118, x1: 249, y1: 141 }));
    expect(c.rg.valor).toBe('574055581');
    expect(c.rg.confianca).toBeGreaterThanOrEqual(0.9);
  });
});
