/**
 * A name that starts with a particle lost its first word(s) (issue #17: final11 #4, "DA KEUCHGUERIAN VAN
 * ARKEL TEN CATE" at 0.92 for HILLEGONDA DA KEUCHGUERIAN VAN ARKEL TEN CATE): its check fails, so its
 * confidence falls under the low line. Word boxes are made up; no image is read.
 */
import { describe, expect, it } from 'vitest';
import { fieldCheck, withValidation } from '../../src/ocr/checks.js';

describe('a name starting with a particle', () => {
  it('fails the name check for every particle, in each name field', () => {
    for (const k of ['nome_completo', 'nome_pai', 'nome_mae'] as const) {
      for (const p of ['DA', 'DE', 'DO', 'DAS', 'DOS', 'E']) expect(fieldCheck(k, `${p} KEUCHGUERIAN VAN ARKEL`)).toBe(false);
    }
  });

  it('leaves names whose first word only begins with those letters, and particles inside a name', () => {
    for (const v of ['DAMIÃO COSTA', 'DEOCLECIANO DA SILVA', 'DOROTEIA DOS SANTOS', 'EDGAR DE SOUZA', 'DASCHA E HORTA', 'DOMINGOS DAS DORES']) {
      expect(fieldCheck('nome_completo', v)).toBeUndefined();
    }
  });

  it('puts a name read sure but without its given name under the low line', () => {
    expect(withValidation(0.92, fieldCheck('nome_completo', 'DA KEUCHGUERIAN VAN ARKEL TEN CATE'))).toBeLessThan(0.8);
    expect(withValidation(0.92, fieldCheck('nome_completo', 'HILLEGONDA DA KEUCHGUERIAN VAN ARKEL TEN CATE'))).toBeGreaterThan(0.8);
  });
});
