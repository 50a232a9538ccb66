import { describe, expect, it } from 'vitest';
import { cnhCheckDigits, cpfCheckDigits, isValidCnhNumber, isValidCpf, parseDate, validateDates } from '../../src/ocr/validators.js';
import { normalizeCpf, normalizeDate, normalizeName, parseIdentity } from '../../src/ocr/normalize.js';
import { sniffMime } from '../../src/ocr/input.js';
import { OcrError } from '../../src/ocr/engine.js';

describe('CPF check digits', () => {
  it('accepts known-valid numbers (Receita Federal modulo 11)', () => {
    expect(cpfCheckDigits('529982247')).toBe('25');
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224725')).toBe(true);
    expect(isValidCpf('111.444.777-35')).toBe(true);
  });
  it('rejects wrong check digits, wrong lengths and repeated digits', () => {
    expect(isValidCpf('529.982.247-26')).toBe(false);
    expect(isValidCpf('529.982.247-52')).toBe(false);
    expect(isValidCpf('529.982.247-2')).toBe(false);
    expect(isValidCpf('111.111.111-11')).toBe(false);
    expect(isValidCpf('')).toBe(false);
  });
});

describe('CNH registration number check digits', () => {
  it('computes both verifiers and validates 11 digits', () => {
    const base = '123456789';
    const dv = cnhCheckDigits(base);
    expect(dv).toMatch(/^\d\d$/);
    expect(isValidCnhNumber(base + dv)).toBe(true);
    const wrong = base + dv![0] + String((Number(dv![1]) + 1) % 10);
    expect(isValidCnhNumber(wrong)).toBe(false);
    expect(isValidCnhNumber('1234567890')).toBe(false);
    expect(isValidCnhNumber('00000000000')).toBe(false);
  });
});

describe('dates', () => {
  it('parses real calendar dates only', () => {
    expect(parseDate('29/02/2020')?.toISOString().slice(0, 10)).toBe('2020-02-29');
    expect(parseDate('29/02/2021')).toBeNull();
    expect(parseDate('31/04/2020')).toBeNull();
    expect(parseDate('1/2/2020')).toBeNull();
  });
  it('checks birth < first licence <= issue < expiry and blames the date breaking most rules', () => {
    const ok = { data_nascimento: '10/05/1980', data_primeira_habilitacao: '01/02/2000', data_emissao: '01/02/2000', data_validade: '01/02/2030' };
    expect(Object.values(validateDates(ok))).toEqual([true, true, true, true]);
    const lateBirth = { ...ok, data_nascimento: '10/05/2031' };
    expect(validateDates(lateBirth)).toEqual({ data_nascimento: false, data_primeira_habilitacao: true, data_emissao: true, data_validade: true });
    const swapped = { ...ok, data_emissao: '01/02/2031' };
    expect(validateDates(swapped).data_emissao).toBe(false);
    expect(validateDates({ ...ok, data_validade: '' }).data_validade).toBe(false);
    expect(validateDates({ ...ok, data_validade: '31/02/2030' }).data_validade).toBe(false);
  });
});

describe('normalisation', () => {
  it('formats CPF and dates from OCR text with look-alike characters', () => {
    expect(normalizeCpf('529 982.247-2S')).toBe('529.982.247-25');
    expect(normalizeDate('O1/O2/2OO0')).toBe('01/02/2000');
    expect(normalizeDate('no date')).toBe('');
  });
  it('keeps accents in names and splits the identity line', () => {
    expect(normalizeName('  JOÃO  DA CONCEIÇÃO , ')).toBe('JOÃO DA CONCEIÇÃO');
    expect(parseIdentity('12345678 SSP SP')).toEqual({ rg: '12345678', orgao: 'SSP', uf: 'SP' });
    expect(parseIdentity('1234567 SSP/MG')).toEqual({ rg: '1234567', orgao: 'SSP', uf: 'MG' });
    expect(parseIdentity('1234567 SSP R')).toEqual({ rg: '1234567', orgao: 'SSP', uf: '' });
    expect(parseIdentity('1234567 IFPRS')).toEqual({ rg: '1234567', orgao: 'IFP', uf: 'RS' });
    expect(parseIdentity('1234567 SESP')).toEqual({ rg: '1234567', orgao: 'SESP', uf: '' });
    expect(parseIdentity('526557774 S|)S RS')).toEqual({ rg: '526557774', orgao: 'SJS', uf: 'RS' });
    expect(parseIdentity('526557774 SIS RS').orgao).toBe('SJS');
  });
});

describe('type sniffing', () => {
  it('recognises JPEG, PNG and PDF by magic bytes', () => {
    expect(sniffMime(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(sniffMime(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe('image/png');
    expect(sniffMime(Buffer.from('%PDF-1.7\n...'))).toBe('application/pdf');
  });
  it('refuses other bytes with the spec message, whatever the name', () => {
    for (const bytes of [Buffer.from('GIF89a....'), Buffer.from('hello'), new Uint8Array(0)]) {
      try {
        sniffMime(bytes);
        expect.unreachable();
      } catch (err) {
        expect(err).toBeInstanceOf(OcrError);
        expect((err as OcrError).kind).toBe('UNSUPPORTED_TYPE');
        expect((err as OcrError).message).toBe('Tipo de arquivo não suportado. Use PNG, JPG ou PDF');
      }
    }
  });
});
