import { describe, expect, it } from 'vitest';
import { foreignSpelling, restoreDiacritics } from '../../src/ocr/orthography.js';
import { LOST_DIACRITIC_CAP, restoreNames, type Draft } from '../../src/ocr/fields.js';

describe('names spelt in another language are not mended to Portuguese spelling (orthography.ts)', () => {
  it('a one-syllable -AO word of a person (the Chinese HAO, GAO, ZHAO) keeps its spelling', () => {
    expect(restoreDiacritics('HAO YUPANQUI CHEN', { person: true }).name).toBe('HAO YUPANQUI CHEN');
    expect(restoreDiacritics('DONGHYUN ZHAO WU', { person: true }).name).toBe('DONGHYUN ZHAO WU');
    // Portuguese names' -ão words have two syllables or more, and are still mended.
    expect(restoreDiacritics('JOAO ADAO LEAO', { person: true }).name).toBe('JOÃO ADÃO LEÃO');
    // "São" after a particle is a name's (Maria de São José); a town's SAO is always São.
    expect(restoreDiacritics('MARIA DE SAO JOSE', { person: true }).name).toBe('MARIA DE SÃO JOSE');
    expect(restoreDiacritics('SAO PAULO').name).toBe('SÃO PAULO');
    expect(restoreDiacritics('HAO', {}).name).toBe('HÃO');
  });

  it('a name with an Ñ, an LL or an accented paroxytone in -Z is not given a circumflex or an -ÃO', () => {
    expect(restoreDiacritics('MINHO GIMÉNEZ GONZÁLEZ', { person: true }).name).toBe('MINHO GIMÉNEZ GONZÁLEZ');
    expect(restoreDiacritics('HAO IBÁNEZ YOON', { person: true }).name).toBe('HAO IBÁNEZ YOON');
    expect(restoreDiacritics('MIRAE XIMÉNA BENÍTEZ ZÁRATE', { person: true }).name).toBe('MIRAE XIMÉNA BENÍTEZ ZÁRATE');
    // -ÃO is still Portuguese's in such a name; LL is no sign (Kelly, Wellington).
    expect(restoreDiacritics('JOAO MUÑOZ', { person: true }).name).toBe('JOÃO MUÑOZ');
    expect(restoreDiacritics('KELLY MÓNICA CONCEICAO', { person: true }).name).toBe('KELLY MÔNICA CONCEIÇÃO');
    expect(restoreDiacritics('JOAO MÓNICA MUÑOZ', { person: true })).toMatchObject({ name: 'JOÃO MÓNICA MUÑOZ', declined: ['MÓNICA'] });
    // Portuguese words in -Z are oxytones without an earlier accent: still Portuguese.
    expect(restoreDiacritics('MÓNICA QUEIROZ MUNIZ', { person: true }).name).toBe('MÔNICA QUEIROZ MUNIZ');
    expect(foreignSpelling('GIMÉNEZ')).toBe(true);
    expect(foreignSpelling('BENÍTEZ')).toBe(true);
    expect(foreignSpelling('QUEIROZ')).toBe(false);
    expect(foreignSpelling('VÁZ')).toBe(false);
  });

  it('a foreign name left as read is still capped when a Portuguese reading would have mended it; a lone HAO is not', () => {
    const d: Record<string, Draft> = {
      nome_completo: { valor: 'HAO YUPANQUI CHEN', conf: 0.93 },
      nome_pai: { valor: 'HAO IBÁNEZ YOON', conf: 0.93 },
      nome_mae: { valor: 'JACINTA GIMÉNEZ GONZÁLEZ', conf: 0.93 },
      local_nascimento: { valor: 'SAO PAULO, SP', conf: 0.93 },
    };
    restoreNames(d);
    expect(d.nome_completo).toEqual({ valor: 'HAO YUPANQUI CHEN', conf: 0.93 });
    expect(d.nome_pai.valor).toBe('HAO IBÁNEZ YOON');
    expect(d.nome_pai.cap).toBe(LOST_DIACRITIC_CAP);
    expect(d.nome_mae.valor).toBe('JACINTA GIMÉNEZ GONZÁLEZ');
    expect(d.nome_mae.cap).toBe(LOST_DIACRITIC_CAP);
    expect(d.local_nascimento.valor).toBe('SÃO PAULO, SP');
  });
});
