import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { INK_LEVEL, inkLines, type InkLine } from '../../src/ocr/ink-lines.js';
import { kindOf, printedLines, whitenPrintedLines } from '../../src/ocr/printed-lines.js';
import { otsu } from '../../src/ocr/light.js';
import { prepareImage } from '../../src/ocr/preprocess.js';
import { clearBorderInk, columns, type GrayImage } from '../../src/ocr/regions.js';
import { generateCnh } from '../fixtures/cnh/index.js';

/** A generated card prepared and squeezed to 0.7 x width as index.ts pageWords hands it over, cut into its sides. */
async function sides(seed: number, model: '2022' | 'old'): Promise<GrayImage[]> {
  const prep = await prepareImage((await generateCnh(seed, { model })).bytes);
  const width = Math.round(prep.width * 0.7);
  const { data, info } = await sharp(prep.png).resize({ width, height: prep.height, fit: 'fill', kernel: 'lanczos3' }).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  const page: GrayImage = { data: new Uint8Array(data), width: info.width, height: info.height };
  clearBorderInk(page);
  expect(prep.splitX).toBeDefined();
  const x = Math.round((prep.splitX as number) * 0.7);
  return [columns(page, 0, x), columns(page, x, page.width)];
}

/** Lines of text drawn in `font` (SVG through sharp), `size` px type at baseline `y`, from x = 40; gray page, blurred by `blur` (sigma) when given. */
async function page(lines: Array<{ text: string; y: number; size: number }>, font = 'DejaVu Sans Mono', blur = 0): Promise<GrayImage> {
  const texts = lines.map((l) => `<text x="40" y="${l.y}" font-family="${font}" font-size="${l.size}" fill="#111">${l.text}</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="820"><rect width="900" height="820" fill="#fff"/>${texts}</svg>`;
  const img = sharp(Buffer.from(svg));
  const { data, info } = await (blur ? img.blur(blur) : img).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

const kinds = (img: GrayImage): string[] => printedLines(img).map((f) => f.kind.text);
const box = (l: InkLine): string => `${l.x0},${l.y0},${l.x1},${l.y1}`;

describe('the card\'s fixed print found before recognition (printed-lines.ts)', () => {
  it('finds the header stack of the 2022 front and the notice of its back, in the header\'s order', async () => {
    const [front, back] = await sides(11, '2022');
    expect(kinds(front)).toEqual(['REPÚBLICA FEDERATIVA DO BRASIL', 'MINISTÉRIO DOS TRANSPORTES', 'CARTEIRA NACIONAL DE HABILITAÇÃO']);
    expect(kinds(back)).toEqual(['VÁLIDA EM TODO O TERRITÓRIO NACIONAL', 'ASSINATURA DO EMISSOR']);
  });

  it('tells the older model\'s ministry (DAS CIDADES) and its DEPARTAMENTO line', async () => {
    const [front] = await sides(12, 'old');
    expect(kinds(front)).toEqual(['REPÚBLICA FEDERATIVA DO BRASIL', 'MINISTÉRIO DAS CIDADES', 'DEPARTAMENTO NACIONAL DE TRÂNSITO', 'CARTEIRA NACIONAL DE HABILITAÇÃO']);
  });

  it('finds the signature lines of the backs: EMISSOR on the 2022 model, PORTADOR and EMISSOR on the older one', async () => {
    const [, back2022] = await sides(11, '2022');
    const [, backOld] = await sides(12, 'old');
    for (const [back, want] of [[back2022, ['ASSINATURA DO EMISSOR']], [backOld, ['ASSINATURA DO PORTADOR', 'ASSINATURA DO EMISSOR']]] as const) {
      const found = printedLines(back);
      expect(found.filter((f) => f.kind.text.startsWith('ASSINATURA')).sort((a, b) => a.line.y0 - b.line.y0).map((f) => f.kind.text)).toEqual(want);
      expect(found.map((f) => f.kind.text)).toContain('VÁLIDA EM TODO O TERRITÓRIO NACIONAL');
    }
    // Given back: ASSINATURA DO, which both print; the name (one letter apart in width) is not guessed.
    const words = whitenPrintedLines(backOld).map((w) => w.text);
    expect(words.filter((t) => t === 'ASSINATURA')).toHaveLength(2);
    expect(words).not.toContain('PORTADOR');
    expect(words).not.toContain('EMISSOR');
  });

  it('hands back no word another printing of the same widths holds: SECRETARIA for DEPARTAMENTO', async () => {
    const header = (third: string) => page([
      { text: 'REPÚBLICA FEDERATIVA DO BRASIL', y: 40, size: 18 }, { text: 'MINISTÉRIO DOS TRANSPORTES', y: 66, size: 18 },
      { text: third, y: 92, size: 18 }, { text: 'CARTEIRA NACIONAL DE HABILITAÇÃO', y: 120, size: 21 },
      { text: 'ANA MARIA DA SILVA', y: 200, size: 28 }, { text: '123.456.789-09', y: 260, size: 28 }, { text: 'JOÃO DA SILVA', y: 320, size: 28 },
    ]);
    for (const third of ['DEPARTAMENTO NACIONAL DE TRÂNSITO', 'SECRETARIA NACIONAL DE TRÂNSITO']) {
      const img = await header(third);
      const taken = printedLines(img).map((f) => f.kind.text);
      expect(taken).toContain('DEPARTAMENTO NACIONAL DE TRÂNSITO');
      const words = whitenPrintedLines(img).map((w) => w.text);
      expect(words).toEqual(expect.arrayContaining(['NACIONAL', 'DE', 'TRÂNSITO', 'HABILITAÇÃO']));
      expect(words).not.toContain('DEPARTAMENTO');
    }
  });

  it('looks for no line on a page of tens of thousands of specks (a crafted page is read as it is)', () => {
    const w = 1300, h = 820, data = new Uint8Array(w * h).fill(255);
    for (let y = 0; y + 8 < h; y += 4) for (let x = (y / 4) % 4 * 3; x < w; x += 13) for (let k = 0; k < 8; k++) data[(y + k) * w + x] = 0;
    const img = { data, width: w, height: h };
    expect(inkLines(img)).toEqual([]);
    const before = Uint8Array.from(img.data);
    expect(whitenPrintedLines(img)).toEqual([]);
    expect(Buffer.compare(Buffer.from(before), Buffer.from(img.data))).toBe(0);
  });

  it('never takes the side\'s lowest line for a signature line (the 2022 front ends with RENACH and its number)', async () => {
    const side = await page([
      { text: 'NOME', y: 40, size: 18 }, { text: 'ANA MARIA', y: 74, size: 27 },
      { text: 'ASSINATURA DO PORTADOR', y: 240, size: 18 },
    ]);
    expect(printedLines(side).filter((f) => f.kind.text.startsWith('ASSINATURA'))).toEqual([]);
  });

  it('never takes a header line or a label for a signature line, though their widths fit', async () => {
    // Monospaced, small type: MINISTÉRIO DAS CIDADES (10, 3, 7 letters) has nearly a signature
    // line's widths (10, 2, 7); under REPÚBLICA, over DEPARTAMENTO, it is no signature line even
    // where the header stack is not found (no value type below it).
    const header = await page([
      { text: 'REPÚBLICA FEDERATIVA DO BRASIL', y: 40, size: 18 }, { text: 'MINISTÉRIO DAS CIDADES', y: 66, size: 18 },
      { text: 'DEPARTAMENTO NACIONAL DE TRÂNSITO', y: 92, size: 18 },
    ]);
    expect(printedLines(header)).toEqual([]);
    // The signature line's own words as a label with its value just below: a field, left.
    const label = await page([
      { text: 'NOME', y: 40, size: 18 }, { text: 'ANA MARIA', y: 74, size: 27 },
      { text: 'ASSINATURA DO PORTADOR', y: 140, size: 18 }, { text: 'JOSÉ DA SILVA', y: 174, size: 27 },
    ]);
    expect(printedLines(label)).toEqual([]);
    // Alone under an empty space, in the side's small type: taken.
    const alone = await page([
      { text: 'NOME', y: 40, size: 18 }, { text: 'ANA MARIA', y: 74, size: 27 },
      { text: 'ASSINATURA DO PORTADOR', y: 240, size: 18 }, { text: 'LOCAL', y: 400, size: 18 }, { text: 'BRASÍLIA, DF', y: 434, size: 27 },
    ]);
    expect(printedLines(alone).map((f) => f.kind.text)).toEqual(['ASSINATURA DO PORTADOR']);
  });

  it('whitens whole found lines only: every other line of the side keeps its ink, and their words are given back', async () => {
    const [front] = await sides(13, '2022');
    const before = inkLines(front);
    const found = printedLines(front);
    const orig = Uint8Array.from(front.data);
    const words = whitenPrintedLines(front);
    const after = inkLines(front);
    expect(found.length).toBe(3);
    expect(words.map((w) => w.text).join(' ')).toBe('REPÚBLICA FEDERATIVA DO BRASIL MINISTÉRIO DOS TRANSPORTES CARTEIRA NACIONAL DE HABILITAÇÃO');
    const taken = new Set(found.map((f) => box(f.line)));
    const kept = before.map(box).filter((b) => !taken.has(b));
    expect(kept.length).toBe(before.length - 3);
    expect(after.map(box).sort()).toEqual(kept.sort());
    // Less ink moves the page's Otsu threshold (the recogniser binarises at it): every pixel left
    // unwhitened is ink or paper at the new threshold as it was at the old one.
    const t0 = otsu(orig), t1 = otsu(front.data);
    let flipped = 0, whitened = 0;
    for (let i = 0; i < orig.length; i++) {
      if (front.data[i] === 255 && orig[i] !== 255) whitened++;
      else if ((orig[i] <= t0) !== (front.data[i] <= t1)) flipped++;
    }
    expect(whitened).toBeGreaterThan(1000);
    expect(flipped).toBe(0);
    // The words sit where their line was.
    const rep = found[0].line;
    expect(words[0].y0).toBe(rep.y0);
    expect(words[0].x0).toBe(rep.x0);
  });

  it('never takes names for print, even names with a header line\'s word widths', async () => {
    // Monospaced: word widths follow letter counts, so these names have the widths of REPÚBLICA
    // FEDERATIVA DO BRASIL (9, 10, 2, 6 letters) and MINISTÉRIO DAS CIDADES (10, 3, 7).
    const names = [{ text: 'FRANCISCO RODRIGUES DA SILVA', size: 27 }, { text: 'CAROLINA DOS SANTOS', size: 27 }];
    const alone = await page([{ ...names[0], y: 60 }, { ...names[1], y: 98 }]);
    const lines = inkLines(alone);
    expect(lines.map((l) => kindOf(l)?.kind.text)).toEqual(['REPÚBLICA FEDERATIVA DO BRASIL', 'MINISTÉRIO DAS CIDADES']);
    // Alone at the top of a page (no value type below them): not a header.
    expect(printedLines(alone)).toEqual([]);
    // At the top of a side in value type, labels in small type around them: not a header either.
    const card = await page([
      { text: 'FILIAÇÃO', y: 40, size: 17 }, { ...names[0], y: 74 }, { ...names[1], y: 112 },
      { text: 'DATA EMISSÃO', y: 170, size: 17 }, { text: '03/04/2021', y: 204, size: 27 },
      { text: 'VALIDADE', y: 260, size: 17 }, { text: '03/04/2031', y: 294, size: 27 },
      { text: 'CPF', y: 350, size: 17 }, { text: '049.031.854-19', y: 384, size: 27 },
    ]);
    expect(printedLines(card)).toEqual([]);
    // The same names in the header's small type, over values: they would be taken (the rule is the type size, not the words).
    const small = await page([
      { ...names[0], y: 40, size: 18 }, { ...names[1], y: 66, size: 18 },
      { text: 'NOME', y: 150, size: 17 }, { text: 'ANA MARIA', y: 184, size: 27 },
      { text: 'CPF', y: 240, size: 17 }, { text: '049.031.854-19', y: 274, size: 27 },
    ]);
    expect(printedLines(small).map((f) => f.kind.text)).toEqual(['REPÚBLICA FEDERATIVA DO BRASIL', 'MINISTÉRIO DAS CIDADES']);
  });

  it('cuts serif type into words where its hairlines fade: gaps measured with the faint ink', async () => {
    // DejaVu Serif, slightly blurred: at the ink level its thin strokes break the letters into pieces
    // with gaps as wide as the word gaps; counted with the faint ink (FAINT_LEVEL) they close.
    const lines = [
      { text: 'REPÚBLICA FEDERATIVA DO BRASIL', y: 40, size: 17 }, { text: 'MINISTÉRIO DAS CIDADES', y: 64, size: 17 },
      { text: 'DEPARTAMENTO NACIONAL DE TRÂNSITO', y: 88, size: 17 }, { text: 'CARTEIRA NACIONAL DE HABILITAÇÃO', y: 114, size: 20 },
      { text: 'NOME', y: 170, size: 17 }, { text: 'ANA MARIA', y: 204, size: 27 }, { text: 'CPF', y: 260, size: 17 }, { text: '049.031.854-19', y: 294, size: 27 },
    ];
    const img = await page(lines, 'DejaVu Serif', 0.8);
    expect(kinds(img)).toEqual(['REPÚBLICA FEDERATIVA DO BRASIL', 'MINISTÉRIO DAS CIDADES', 'DEPARTAMENTO NACIONAL DE TRÂNSITO', 'CARTEIRA NACIONAL DE HABILITAÇÃO']);
    // Gaps measured at the ink level alone (the faint level set to it): none of them is found.
    expect(printedLines(img, inkLines(img, INK_LEVEL, INK_LEVEL))).toEqual([]);
  });

  it('takes the header over values that are large against the header\'s type though not against the side\'s 20th percentile', async () => {
    // A side whose labels make no lines (blurred: their letters run together): its 20th percentile line
    // height is CARTEIRA's; the values are 1.35 x the header lines' own type and taken as values.
    const img = await page([
      { text: 'REPÚBLICA FEDERATIVA DO BRASIL', y: 40, size: 17 }, { text: 'MINISTÉRIO DOS TRANSPORTES', y: 64, size: 17 }, { text: 'CARTEIRA NACIONAL DE HABILITAÇÃO', y: 90, size: 20 },
      ...['JOSÉ CARLOS PEREIRA', '12/03/1985, CAMPINAS, SP', '049.031.854-19', '01234567890', '03/04/2031', 'CAMPINAS, SP', 'MARIA DE SOUZA', 'ANTONIO PEREIRA'].map((text, i) => ({ text, y: 150 + 50 * i, size: 24 })),
    ], 'DejaVu Sans');
    expect(kinds(img)).toEqual(['REPÚBLICA FEDERATIVA DO BRASIL', 'MINISTÉRIO DOS TRANSPORTES', 'CARTEIRA NACIONAL DE HABILITAÇÃO']);
  });

  it('finds nothing on a blank page or a page of running text', async () => {
    expect(printedLines(await page([]))).toEqual([]);
    const prose = await page(Array.from({ length: 12 }, (_, i) => ({ text: 'Lorem ipsum dolor sit amet, consectetur', y: 40 + 30 * i, size: 18 })), 'DejaVu Sans');
    expect(printedLines(prose)).toEqual([]);
  });
});
