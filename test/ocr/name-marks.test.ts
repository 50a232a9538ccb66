/**
 * Marks of names the recogniser misreads (issue #17, seventh round, final4 part): apostrophes read as
 * typographic marks or split off (SANT'ANNA), and accents lost over a capital (HELOÍSA read HELOISA)
 * seen in the word's box, which is taller than its line's plain words.
 */
import { describe, expect, it } from 'vitest';
import { lostMarkWords } from '../../src/ocr/doubts.js';
import { extractFields, LOST_DIACRITIC_CAP, LOST_MARK_SCALE } from '../../src/ocr/fields.js';
import { apostrophes, normalizeName } from '../../src/ocr/normalize.js';
import { groupPhrases, toPhrase, type OcrWord } from '../../src/ocr/words.js';

/** Words of `text` on one line from x = 100, `h` px type; `taller` words reach `up` px higher. */
function line(text: string, y0: number, h: number, taller: Record<string, number> = {}, conf = 0.96): OcrWord[] {
  let x = 100;
  return text.split(' ').map((t) => {
    const w = { text: t, conf, x0: x, y0: y0 - (taller[t] ?? 0), x1: x + t.length * h * 0.6, y1: y0 + h };
    x = w.x1 + h * 0.4;
    return w;
  });
}
const fields = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));

describe('apostrophes in names', () => {
  it('reads a typographic apostrophe, prime or backtick between letters as the apostrophe', () => {
    expect(normalizeName('IVO OLIVA SANT\u2019ANNA')).toBe("IVO OLIVA SANT'ANNA");
    expect(normalizeName('CIBELE D\u00b4ÁVILA')).toBe("CIBELE D'ÁVILA");
    expect(normalizeName('ANA SANT`ANA')).toBe("ANA SANT'ANA");
    expect(normalizeName('ANA SANT\u2032ANA')).toBe("ANA SANT'ANA");
  });

  it('joins a short elided word split off at its mark to what follows', () => {
    expect(normalizeName("IVO OLIVA SANT' ANNA")).toBe("IVO OLIVA SANT'ANNA");
    expect(normalizeName('ANA D\u2019 ÁVILA')).toBe("ANA D'ÁVILA");
  });

  it('does not join a particle or a long word with a stray mark (elision ends in a consonant, in a short word)', () => {
    expect(normalizeName("ANA DA' SILVA")).toBe('ANA DA SILVA');
    expect(normalizeName("SILVA' SANTOS")).toBe('SILVA SANTOS');
    expect(apostrophes("MARIA' ")).toBe("MARIA' ");
    expect(normalizeName("'ANA MARIA'")).toBe('ANA MARIA');
  });
});

describe('an accent lost over a capital, seen in the box', () => {
  it('finds a plain word taller than its line by the height of a mark above it', () => {
    const ws = line('HELOISA DE CASTELO CALMON', 100, 22, { HELOISA: 4 });
    expect(lostMarkWords([toPhrase(ws)]).map((w) => w.text)).toEqual(['HELOISA']);
  });

  it('does not flag words of even height, a word read with its accent, ink below the line or a second look', () => {
    expect(lostMarkWords([toPhrase(line('HELOISA DE CASTELO CALMON', 100, 22))])).toEqual([]);
    expect(lostMarkWords([toPhrase(line('HELOÍSA DE CASTELO CALMON', 100, 22, { HELOÍSA: 4 }))])).toEqual([]);
    const below = line('HELOISA DE CASTELO CALMON', 100, 22).map((w) => (w.text === 'HELOISA' ? { ...w, y1: w.y1 + 4 } : w));
    expect(lostMarkWords([toPhrase(below)])).toEqual([]);
    const reread = line('HELOISA DE CASTELO CALMON', 100, 22, { HELOISA: 4 }).map((w) => ({ ...w, reread: w.text === 'HELOISA' }));
    expect(lostMarkWords([toPhrase(reread)])).toEqual([]);
  });

  it('needs two other plain words to compare with', () => {
    expect(lostMarkWords([toPhrase(line('HELOISA CALMON', 100, 22, { HELOISA: 4 }))])).toEqual([]);
  });

  it('puts the name under the low-confidence line and asks for the word enlarged, taken only with its mark', () => {
    const words = [...line('2 e 1 NOME E SOBRENOME', 70, 12), ...line('HELOISA DE COELHO CALMON', 100, 22, { HELOISA: 5 })];
    const { campos, suspects } = fields(words);
    expect(campos.nome_completo.valor).toBe('HELOISA DE COELHO CALMON');
    expect(campos.nome_completo.confianca).toBeLessThanOrEqual(LOST_DIACRITIC_CAP);
    const s = suspects.find((x) => x.scale === LOST_MARK_SCALE);
    expect(s?.phrase.text).toBe('HELOISA');
    expect(s?.accept('HELOÍSA')).toBe(true);
    expect(s?.accept('HELOISA')).toBe(false);
    expect(s?.accept('HELOÍSE')).toBe(false);
    // The same line with even boxes stays sure and asks nothing.
    const even = fields([...line('2 e 1 NOME E SOBRENOME', 70, 12), ...line('HELOISA DE COELHO CALMON', 100, 22)]);
    expect(even.campos.nome_completo.confianca).toBeGreaterThan(0.8);
    expect(even.suspects.some((x) => x.scale === LOST_MARK_SCALE)).toBe(false);
  });
});

describe('an issuing body glued to its state read with a look-alike', () => {
  it('splits "IFPR)" into IFP and RJ (space lost, J read as a mark)', async () => {
    const { parseIdentity } = await import('../../src/ocr/normalize.js');
    expect(parseIdentity('372182774 IFPR)')).toEqual({ rg: '372182774', orgao: 'IFP', uf: 'RJ' });
    expect(parseIdentity('372182774 IFPRS')).toEqual({ rg: '372182774', orgao: 'IFP', uf: 'RS' });
    // No known body and state in it: left as read.
    expect(parseIdentity('12345 SSPM|').orgao).toBe('SSPM');
  });
});

describe('hyphens made of marks between a name\'s words', () => {
  it('reads a hyphen touching a particle as a space and caps a name keeping another hyphen', async () => {
    const { particleHyphens } = await import('../../src/ocr/fields.js');
    const d: Parameters<typeof particleHyphens>[0] = { nome_mae: { valor: 'AMÉLIA MAFALDA-DA FROTA-LEAL', conf: 0.9 }, nome_pai: { valor: 'JOSÉ DA-SILVA', conf: 0.9 }, nome_completo: { valor: 'ANA-LÚCIA DE SOUZA', conf: 0.9 } };
    particleHyphens(d);
    expect(d.nome_mae).toEqual({ valor: 'AMÉLIA MAFALDA DA FROTA-LEAL', conf: 0.9, cap: LOST_DIACRITIC_CAP });
    expect(d.nome_pai).toEqual({ valor: 'JOSÉ DA SILVA', conf: 0.9 });
    expect(d.nome_completo).toEqual({ valor: 'ANA-LÚCIA DE SOUZA', conf: 0.9 });
  });
});
