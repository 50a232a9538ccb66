/**
 * Issue #17 scope 2, "never answer confidently with the wrong thing": causes of wrong values that came
 * with confianca >= 0.8 on the final3 part, each taken at its general cause.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractFields } from '../../src/ocr/fields.js';
import { readPdf } from '../../src/ocr/input.js';
import { groupPhrases } from '../../src/ocr/words.js';

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
