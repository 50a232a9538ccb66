/**
 * Issue #17 (weak fields): category and remark codes read under their labels when the recogniser's box
 * is only their cap height or the print moved them left of the label; remarks glued by a missed space;
 * and the card found inside a tall dark phone screenshot (the prepared image is the card, not the screen).
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { findLabels } from '../../src/ocr/layout.js';
import { CARD_HEIGHT_PX, prepareImage } from '../../src/ocr/preprocess.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';
import { generateCnh } from '../fixtures/cnh/index.js';

const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
const line = (text: string, x0: number, y0: number, h: number): OcrWord[] => {
  let x = x0;
  return text.split(' ').map((t) => { const word = w(t, x, y0, h); x = word.x1 + h * 0.4; return word; });
};
const read = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

/**
 * Label row of an older card: label boxes 16 px tall where accents or cedillas reach up (the phrase
 * height of most labels), plain capitals 12 px (their cap height).
 */
const labels = (): OcrWord[] => [
  w('NOME', 100, 40, 12), w('CPF', 100, 120, 12), ...line('DATA NASCIMENTO', 400, 120, 12),
  w('FILIAÇÃO', 100, 200, 16), w('PERMISSÃO', 100, 300, 16), w('ACC', 400, 300, 12), ...line('CAT. HAB.', 700, 300, 12),
  w('OBSERVAÇÕES', 100, 400, 16), ...line('1ª HABILITAÇÃO', 400, 400, 16), w('VALIDADE', 700, 400, 12),
  ...line('Nº REGISTRO', 100, 500, 16), ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 600, 16),
];

describe('codes under their labels', () => {
  it('a one-letter category whose box is its cap height (18 px, under 1.2 x the 16 px label phrases) is the category', () => {
    const c = read([...labels(), w('A', 702, 320, 18), w('B', 102, 420, 18)]);
    expect(c.categoria.valor).toBe('A');
    expect(c.observacoes.valor).toBe('B');
  });

  it('a category printed left of its label (the value layer shifted) is still read', () => {
    // Ends 20 px before the label's start: within 2.5 label heights.
    const c = read([...labels(), w('D', 669, 320, 18)]);
    expect(c.categoria.valor).toBe('D');
  });

  it('a small-type word under the label is not taken for the value', () => {
    const c = read([...labels(), w('A', 702, 320, 13)]);
    expect(c.categoria.valor).toBe('');
  });

  it('EARA (a space missed between EAR and a code) reads EAR A; a stray "|" is dropped', () => {
    expect(read([...labels(), w('EARA', 100, 420, 18)]).observacoes.valor).toBe('EAR A');
    expect(read([...labels(), ...line('EAR A', 100, 420, 18)]).observacoes.valor).toBe('EAR A');
    // A frame line's edge read as "|" before the code is not part of it.
    expect(read([...labels(), ...line('| EAR', 100, 420, 22)]).observacoes.valor).toBe('EAR');
  });
});

describe('labels read as what they are', () => {
  it('"9CAT. HAB." (field number glued) is the category label', () => {
    const c = read([...line('9CAT. HAB.', 100, 100, 12), w('AB', 100, 120, 22), ...line('1ª HABILITAÇÃO', 400, 100, 16), ...line('01/10/2012', 400, 120, 22)]);
    expect(c.categoria.valor).toBe('AB');
  });

  it('"4a DATA EMISSÃO" is the issue-date label, not PERMISSÃO (two edits apart), nor the reverse', () => {
    const both = findLabels(groupPhrases([...line('PERMISSÃO', 100, 40, 16), ...line('4a DATA EMISSÃO', 100, 100, 16)]));
    expect(both.get('emissao')?.phrase.text).toBe('4a DATA EMISSÃO');
    expect(both.get('permissao')?.phrase.text).toBe('PERMISSÃO');
    const issueOnly = findLabels(groupPhrases(line('4a DATA EMISSÃO', 100, 100, 16)));
    expect(issueOnly.has('permissao')).toBe(false);
  });
});

describe('a card in a tall dark screenshot', () => {
  it('is cropped to the card (landscape, scaled to the card height)', async () => {
    const card = await generateCnh(31, { model: '2022', frontOnly: true });
    const small = await sharp(card.bytes).flatten({ background: '#ffffff' }).resize({ width: 460 }).png().toBuffer();
    const screen = await sharp({ create: { width: 600, height: 1300, channels: 3, background: '#121212' } })
      .composite([{ input: small, left: 70, top: 180 }]).png().toBuffer();
    const prep = await prepareImage(screen);
    expect(prep.width).toBeGreaterThan(prep.height);
    expect(prep.height).toBe(CARD_HEIGHT_PX);
  });
});
