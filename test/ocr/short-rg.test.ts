/**
 * An identity number of 4-5 digits is doubted (checks.ts fieldCheck): a shadow or the card's edge cut a
 * longer one (final14 #69 read "7443" for 91217443 at 0.952).
 */
import { describe, expect, it } from 'vitest';
import { fieldCheck, scoreFields } from '../../src/ocr/checks.js';

describe('identity number length', () => {
  it('passes 6-14 digits and fails 4-5', () => {
    expect(fieldCheck('rg', '7443')).toBe(false);
    expect(fieldCheck('rg', '51144')).toBe(false);
    expect(fieldCheck('rg', '123456')).toBe(true);
    expect(fieldCheck('rg', '091766192')).toBe(true);
    expect(fieldCheck('rg', '12345678X')).toBe(true);
  });

  it('a short number read sure comes out under the low-confidence line; a whole one keeps its confidence', () => {
    expect(scoreFields({ rg: { valor: '7443', conf: 0.95 } }).rg.confianca).toBeLessThan(0.8);
    expect(scoreFields({ rg: { valor: '91217443', conf: 0.95 } }).rg.confianca).toBeGreaterThanOrEqual(0.95);
  });
});
