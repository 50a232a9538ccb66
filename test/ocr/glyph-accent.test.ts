/**
 * The mark over a capital told by its ink (src/ocr/glyph-accent.ts): words drawn in the card's fonts,
 * read with the wrong mark, are mended to the mark the ink shows; the right mark, a mark too small to
 * judge, and words without marks are left as read.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { drawn } from './drawn-word.js';
import { markShape, mendMarks, nameMark } from '../../src/ocr/glyph-accent.js';
import type { Gray } from '../../src/ocr/glyph-i.js';

const FONTS = ['DejaVu Sans', 'Liberation Sans', 'DejaVu Serif', 'Liberation Serif'];

describe('the mark over a capital, by its ink', () => {
  it('mends a tilde read as an acute in four fonts at value size, and never names it another mark', async () => {
    let mended = 0, cases = 0;
    for (const font of FONTS) {
      for (const size of [26, 28, 30, 34]) {
        const tilde = await drawn('KAUÃ', font, size);
        const got = mendMarks(tilde.g, [{ text: 'KAUÁ', conf: 0.81, ...tilde.box }])[0].text;
        // Mended, or left as read where the mark's shape does not tell (a profile a few rows high).
        expect(['KAUÃ', 'KAUÁ'], `${font} ${size}`).toContain(got);
        cases++;
        if (got === 'KAUÃ') mended++;
      }
      const big = await drawn('KAUÃ', font, 34);
      expect(mendMarks(big.g, [{ text: 'KAUÁ', conf: 0.81, ...big.box }])[0].text, `${font} 34`).toBe('KAUÃ');
    }
    expect(mended).toBeGreaterThanOrEqual(0.75 * cases);
  });

  it('mends an acute read as a tilde where the acute is wide enough for a profile, and never names a third mark', async () => {
    for (const font of ['DejaVu Sans', 'DejaVu Serif']) {
      const acute = await drawn('KAUÁ', font, 34);
      expect(mendMarks(acute.g, [{ text: 'KAUÃ', conf: 0.81, ...acute.box }])[0].text, font).toBe('KAUÁ');
    }
    for (const font of FONTS) {
      const acute = await drawn('KAUÁ', font, 26);
      // A 26 px acute is 4-5 px wide: too narrow to judge (left as read) or judged an acute.
      expect(['KAUÃ', 'KAUÁ'], font).toContain(mendMarks(acute.g, [{ text: 'KAUÃ', conf: 0.81, ...acute.box }])[0].text);
      expect(mendMarks(acute.g, [{ text: 'KAUÂ', conf: 0.81, ...acute.box }])[0].text, font).not.toBe('KAUÃ');
    }
  });

  it('tells a circumflex from an acute (ALCÂNTARA read ALCÁNTARA) and keeps the word\'s confidence', async () => {
    for (const font of FONTS) {
      const { g, box } = await drawn('ALCÂNTARA', font, 30);
      const [w] = mendMarks(g, [{ text: 'ALCÁNTARA', conf: 0.77, ...box }]);
      expect(w.text, font).toBe('ALCÂNTARA');
      expect(w.conf).toBe(0.77);
    }
  });

  it('leaves right marks, unmarked words and a trailing comma as read', async () => {
    const right = await drawn('CAMAQUÃ,', 'DejaVu Sans', 28);
    const word = { text: 'CAMAQUÃ,', conf: 0.9, ...right.box };
    expect(mendMarks(right.g, [word])[0]).toBe(word);
    const plain = await drawn('SANTOS', 'DejaVu Sans', 28);
    const p = { text: 'SANTOS', conf: 0.9, ...plain.box };
    expect(mendMarks(plain.g, [p])[0]).toBe(p);
    const wrongComma = { text: 'CAMAQUÁ,', conf: 0.9, ...right.box };
    expect(mendMarks(right.g, [wrongComma])[0].text).toBe('CAMAQUÃ,');
  });

  it('takes no wave of the security print passing over a word for a tilde (final6 #51: APOLINÁRIO read APOLINÃRIO at 0.857)', async () => {
    const size = 26;
    const w = Math.ceil(size * 10 * 0.9) + 40, h = Math.ceil(size * 2.2);
    // The word drawn with its acute, and a wave 20 x 8 px just over its A (the card's guilloche line).
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="100%" height="100%" fill="#fff"/>`
      + `<text x="20" y="${Math.round(size * 1.6)}" font-family="DejaVu Sans" font-size="${size}" fill="#111">APOLINÁRIO</text>`
      + `<path d="M118 19 Q123 11 128 15 T138 13" fill="none" stroke="#111" stroke-width="2.5"/></svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).greyscale().raw().toBuffer({ resolveWithObject: true });
    const g: Gray = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
    const plain = await drawn('APOLINÁRIO', 'DejaVu Sans', size);
    const word = { text: 'APOLINÁRIO', conf: 0.93, ...plain.box };
    expect(mendMarks(g, [word])[0].text).toBe('APOLINÁRIO');
    // The size rule on its own: a 20 x 8 px "mark" over 20 px capitals is no mark, whatever its profile.
    expect(nameMark({ acute: -0.84, tilde: 0.74, circumflex: 0.37 }, 20, 8, 20)).toBeUndefined();
  });

  it('does not judge a mark over small type, nor one too narrow for a profile', async () => {
    const small = await drawn('KAUÃ', 'DejaVu Sans', 12);
    const w = { text: 'KAUÁ', conf: 0.8, ...small.box };
    expect(mendMarks(small.g, [w])[0].text).toBe('KAUÁ');
    // A 4 px stroke: an acute's size, or a circumflex that lost a leg; not named either way.
    expect(nameMark({ acute: 1, tilde: 0, circumflex: 0 }, 4, 4, 22)).toBeUndefined();
    // A wide mark cannot be an acute however its profile climbs: it is a tilde or a circumflex, or nothing.
    expect(nameMark({ acute: 0.9, tilde: 0.1, circumflex: 0.2 }, 10, 3, 20)).toBeUndefined();
    expect(nameMark({ acute: 0.37, tilde: 0.43, circumflex: 0.03 }, 9, 3, 20)).toBe('tilde');
    // A shape the size allows is named only when it is also the best fit of the three (HABILITAÇÃO's
    // tilde, 7 px wide, fitting an acute's climb 0.61 and a roof 0.51), and never from two rows.
    expect(nameMark({ acute: 0.61, tilde: 0, circumflex: 0.51 }, 7, 3, 20)).toBeUndefined();
    expect(nameMark({ acute: 0, tilde: 0.9, circumflex: 0 }, 8, 2, 20)).toBeUndefined();
    expect(nameMark({ acute: 0, tilde: 0.9, circumflex: 0 }, 8, 3, 20)).toBe('tilde');
  });

  it('names the shape from the ink of a drawn stroke: a rising stroke is an acute, a wave a tilde', () => {
    const width = 40;
    const stroke = (pts: Array<[number, number]>): number[] => pts.map(([x, y]) => y * width + x);
    const rising = stroke([[0, 5], [1, 5], [1, 4], [2, 4], [2, 3], [3, 3], [3, 2], [4, 2], [4, 1], [5, 1], [5, 0]]);
    expect(markShape(rising, width, 20).mark).toBe('acute');
    const wave = stroke([[0, 3], [1, 2], [2, 1], [3, 1], [4, 2], [5, 3], [6, 3], [7, 2], [8, 1], [9, 1]]);
    // A wave of 10 columns, 3 rows high over a 20 px letter: wide enough for a tilde, too wide for an acute.
    expect(markShape(wave, width, 20).mark).toBe('tilde');
  });
});
