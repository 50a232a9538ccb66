/**
 * A page whose label type an effect took (a phone's median smear, a halftone copy) but whose title reads is
 * still taken for a CNH (quality.ts looksLikeCnh, showsCnhTitle): final23 #24 read no label, its header's
 * "CARTEIRA NACIONAL DE HABILITAÇÃO" and its values, and was dropped as not a CNH.
 */
import { describe, expect, it } from 'vitest';
import { looksLikeCnh, showsCnhTitle } from '../../src/ocr/quality.js';
import { fold } from '../../src/ocr/words.js';

const none = {} as Record<string, { valor: string }>;

describe('showsCnhTitle / looksLikeCnh (quality.ts)', () => {
  it('takes a page with the card title and no label for a CNH', () => {
    // final23 #24's text as the reader put it together (no label found, two core fields read).
    const text = fold('REPÚBLICA FEDERATIVA DO BRASIL / MINISTÉRIO DOS TRANSPORTES  DETRAN  sm / CARTEIRA NACIONAL DE HABILITAÇÃO / NENE 3 / JASY GIRALT ARAXUAÁ / 28/07/1983 NORMANDIA, RR');
    const campos = { nome_completo: { valor: 'JASY GIRALT ARAXUAÁ' }, data_nascimento: { valor: '28/07/1983' } };
    expect(looksLikeCnh(0, text, campos)).toBe(true);
  });

  it('reads the title through a few misread letters, DE misread or dropped', () => {
    for (const t of ['CARTEIRA NACIONAL DE HABILITACAO', 'Carteira Nacional de Habilitação', 'CAPTEIRA NECIONEL OE ABILITAÇÃO', 'CARTEIRA NACIONAL DE MARILITAÇÃO', 'CARTEIRA NACIONAL HABILITAÇÃO', 'CARTEIRA  NACIONAL, DE  HABILITACAO.']) {
      expect(showsCnhTitle(fold(t)), t).toBe(true);
    }
  });

  it('does not take another document, a blank page or scattered words for the title', () => {
    for (const t of ['REPÚBLICA FEDERATIVA DO BRASIL CARTEIRA DE IDENTIDADE', 'CARTEIRA DE TRABALHO E PREVIDÊNCIA SOCIAL', 'CARTEIRA NACIONAL DE SAÚDE', 'NACIONAL CARTEIRA HABILITAÇÃO', 'CARTEIRA', '', 'ARTEIRA NACWORADEC HA', 'DETRAN RENACH']) {
      expect(showsCnhTitle(fold(t)), t).toBe(false);
    }
    // The old evidence still stands alone: without the title, no label and one card word is not a CNH.
    expect(looksLikeCnh(0, fold('DETRAN 12/11/2016'), none)).toBe(false);
    expect(looksLikeCnh(0, fold('REPÚBLICA FEDERATIVA DO BRASIL CARTEIRA DE IDENTIDADE'), none)).toBe(false);
  });
});
