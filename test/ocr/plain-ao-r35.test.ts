/**
 * A name word printed -AO without the tilde is kept as printed (glyph-plain-ao.ts; thirty-fourth round:
 * final32 read its CALHAO surnames "CALHÃO" six times), while a tilde the recogniser lost is still put back.
 */
import { describe, expect, it } from 'vitest';
import { blankOverAo, flagPlainAo } from '../../src/ocr/glyph-plain-ao.js';
import { restoreDiacritics } from '../../src/ocr/orthography.js';
import { CARD_FACES, WEARS, drawn, worn } from './drawn-word.js';

/** blankOverAo of `truth` drawn in every card face and wear at `size` px, read as `read`. */
async function blanks(truth: string, read: string, size: number): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const [font, bold] of CARD_FACES) for (const [sigma, quality] of WEARS) {
    const d = await drawn(truth, font, size, bold);
    out.push(blankOverAo(await worn(d.g, sigma, quality), { text: read, conf: 0.9, ...d.box }));
  }
  return out;
}

describe('a name word printed -AO without its tilde', () => {
  it('is seen blank over the A in every face and wear when printed so', async () => {
    for (const size of [22, 28]) {
      const b = await blanks('CALHAO', 'CALHAO', size);
      expect(b.filter(Boolean).length, `size ${size}`).toBeGreaterThanOrEqual(b.length - 2);
    }
  });

  it('is never seen blank when the card prints the tilde the recogniser lost', async () => {
    for (const size of [22, 28]) for (const [truth, read] of [['CALHÃO', 'CALHAO'], ['JOÃO', 'JOAO'], ['BRANDÃO', 'BRANDAO'], ['CONCEIÇÃO', 'CONCEICAO'], ['SIMÃOS', 'SIMAOS']]) {
      expect((await blanks(truth, read, size)).some(Boolean), `${truth} at ${size}`).toBe(false);
    }
  });

  it('flags only words read -AO in plain capitals', async () => {
    const d = await drawn('CALHAO', 'DejaVu Sans', 28);
    const [a, b, c] = flagPlainAo(d.g, [{ text: 'CALHAO', conf: 0.9, ...d.box }, { text: 'CALHÃO', conf: 0.9, ...d.box }, { text: 'CALHA', conf: 0.9, ...d.box }]);
    expect(a.plainInk).toBe(true);
    expect(b.plainInk).toBeUndefined();
    expect(c.plainInk).toBeUndefined();
  });

  it('keeps a flagged word as read and declines the rule (the name is then capped), restores an unflagged one', () => {
    expect(restoreDiacritics('NICOLINA GAIVA CALHAO', { person: true, plainAo: new Set(['CALHAO']) })).toMatchObject({ name: 'NICOLINA GAIVA CALHAO', declined: ['CALHAO'] });
    expect(restoreDiacritics('NICOLINA GAIVA CALHAO', { person: true }).name).toBe('NICOLINA GAIVA CALHÃO');
    expect(restoreDiacritics('JOAO CALHAO', { person: true, plainAo: new Set(['CALHAO']) }).name).toBe('JOÃO CALHAO');
  });
});
