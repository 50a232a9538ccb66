import { describe, expect, it } from 'vitest';
import { hardPageGlimpsed } from '../../src/ocr/index.js';
import type { PreparedImage } from '../../src/ocr/preprocess.js';

/** A prepared page's fields hardPageGlimpsed reads: its quality metrics. */
const page = (contrast: number, resolutionPx: number): PreparedImage => ({
  png: Buffer.alloc(0), width: 2592, height: 820, rotationDeg: 0, light: { unevenness: 0, flattened: false },
  quality: { grade: 'ruim', resolutionPx, sharpness: 5, contrast },
});

describe('hardPageGlimpsed (fifteenth round: a hard page that did not show its labels is read again)', () => {
  it('a dark, small card whose header was read (final13 #78: no label, HABILITACAO read)', () => {
    expect(hardPageGlimpsed(page(41, 347), 0, 'CARTEIRA NACIONAL DE HABILITACAO')).toBe(true);
  });

  it('a dark page with one label read', () => {
    expect(hardPageGlimpsed(page(60, 800), 1, 'NOME')).toBe(true);
  });

  it('not a page that is neither dark nor small, nor a hard page without any glimpse of a CNH', () => {
    expect(hardPageGlimpsed(page(150, 800), 2, 'CARTEIRA NACIONAL DE HABILITACAO')).toBe(false);
    expect(hardPageGlimpsed(page(41, 347), 0, 'PRAIA DO FORTE')).toBe(false);
  });
});
