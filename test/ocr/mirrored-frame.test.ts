/**
 * A frame mirrored left to right (a selfie camera's or a webcam preview's, final19): the reader reads it
 * flopped when neither the upright nor the turned page shows MIN_LABELS labels (index.ts ORIENTATIONS),
 * and frame.ts flops the decoded frame before the card is looked for.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { findCard } from '../../src/ocr/frame.js';
import { recognizeImage } from '../../src/ocr/index.js';
import type { OcrWord } from '../../src/ocr/words.js';
import { generateCnh } from '../fixtures/cnh/index.js';
import { orientationCode, orientedFrame } from './oriented-frame.js';

/** A card's labels and values on one page (CARD_HEIGHT_PX tall), as the recogniser reads an upright card. */
const CARD: OcrWord[] = [
  ['NOME', 30, 60], ['JOSE DA SILVA', 30, 90], ['DOC. IDENTIDADE / ORG. EMISSOR / UF', 360, 140], ['1234567 SSP SP', 360, 170],
  ['CPF', 360, 220], ['683.561.945-71', 360, 250], ['DATA NASCIMENTO', 620, 220], ['10/02/1980', 620, 250],
  ['FILIAÇÃO', 360, 300], ['JOAO DA SILVA', 360, 330], ['VALIDADE', 360, 560], ['20/05/2030', 360, 590],
  ['Nº REGISTRO', 30, 620], ['05608987642', 30, 650], ['1ª HABILITAÇÃO', 620, 560], ['03/04/2001', 620, 590],
].map(([text, x, y]) => ({ text: text as string, conf: 0.92, x0: x as number, y0: y as number, x1: (x as number) + 12 * (text as string).length, y1: (y as number) + 20 }));

/** A frame whose card reads only in orientation `readable` (turn, mirrored), noise in the others. */
const frameReadableAs = (readable: { extraTurnDeg: number; mirrored: boolean }) =>
  orientedFrame((code) => (code === orientationCode(readable) ? CARD : [{ text: 'ƎMOИ', conf: 0.3, x0: 30, y0: 60, x1: 90, y1: 80 }]));

describe('a frame mirrored left to right (index.ts ORIENTATIONS)', () => {
  it('reads an upright page once, never flopped', async () => {
    const f = frameReadableAs({ extraTurnDeg: 0, mirrored: false });
    const out = await recognizeImage([f.rec], new Uint8Array(8), f.prepare);
    expect(f.calls.some((o) => o.mirrored)).toBe(false);
    expect(f.calls.some((o) => o.extraTurnDeg === 180)).toBe(false);
    expect(out.words.some((w) => w.text === '683.561.945-71')).toBe(true);
  });

  it('reads a mirrored page flopped, and a mirrored page upside down flopped and turned', async () => {
    for (const readable of [{ extraTurnDeg: 0, mirrored: true }, { extraTurnDeg: 180, mirrored: true }]) {
      const f = frameReadableAs(readable);
      const out = await recognizeImage([f.rec], new Uint8Array(8), f.prepare);
      expect(out.words.some((w) => w.text === '683.561.945-71')).toBe(true);
      // Every preparation after the search (second looks, a second reading) keeps the orientation found.
      const found = f.calls.findIndex((o) => o.mirrored && (o.extraTurnDeg ?? 0) === readable.extraTurnDeg);
      expect(found).toBeGreaterThan(0);
      for (const o of f.calls.slice(found + 1)) expect([o.mirrored, o.extraTurnDeg ?? 0]).toEqual([true, readable.extraTurnDeg]);
    }
  });

  it('keeps an upside-down page\'s turn without trying the mirrored ones', async () => {
    const f = frameReadableAs({ extraTurnDeg: 180, mirrored: false });
    await recognizeImage([f.rec], new Uint8Array(8), f.prepare);
    expect(f.calls.some((o) => o.mirrored)).toBe(false);
  });
});

describe('a reading in another orientation kept only when it reads more sure words (index.ts sureWords)', () => {
  /** A dim, small card read upright: its values at 0.85-0.95 but no label; flopped: noise and one label-like word, unsure. */
  const DIM_UPRIGHT: OcrWord[] = [['DETRAN-', 900, 40], ['ES', 990, 40], ['19/09/1971,', 30, 200], ['MARATAÍZES,', 200, 200], ['ES', 380, 200], ['198984724', 30, 360], ['SDS', 200, 360]]
    .map(([text, x, y]) => ({ text: text as string, conf: 0.9, x0: x as number, y0: y as number, x1: (x as number) + 14 * (text as string).length, y1: (y as number) + 24 }));
  const NOISE_WITH_A_LABEL: OcrWord[] = [['CPF', 500, 300], ['ƎMOИ', 30, 60], ['ad', 40, 400]]
    .map(([text, x, y]) => ({ text: text as string, conf: text === 'ad' ? 0.82 : 0.4, x0: x as number, y0: y as number, x1: (x as number) + 14 * (text as string).length, y1: (y as number) + 24 }));

  it('keeps the upright reading of a page whose flopped reading stumbles on one label among noise', async () => {
    const f = orientedFrame((code) => (code === 0 ? DIM_UPRIGHT : code === 2 ? NOISE_WITH_A_LABEL : []));
    const out = await recognizeImage([f.rec], new Uint8Array(8), f.prepare);
    // The flopped page was tried (the upright one showed no label) but not kept.
    expect(f.calls.some((o) => o.mirrored)).toBe(true);
    expect(out.words.some((w) => w.text === '19/09/1971,')).toBe(true);
    expect(out.words.some((w) => w.text === 'CPF')).toBe(false);
  });
});

describe('findCard on a mirrored frame (frame.ts)', () => {
  it('finds the same card, pixel for pixel, in a frame flopped and read mirrored', async () => {
    const doc = await generateCnh(106, { model: '2022', frontOnly: true, degraded: { rotateDeg: 3, photo: true, jpegQuality: 90, cardWidthPx: 1100 } });
    const flopped = await sharp(doc.bytes).flop().png().toBuffer();
    const plainCard = await findCard(await sharp(doc.bytes).png().toBuffer());
    const mirroredCard = await findCard(flopped, 0, undefined, true);
    const unflopped = await findCard(flopped);
    expect([mirroredCard.rgb.width, mirroredCard.rgb.height]).toEqual([plainCard.rgb.width, plainCard.rgb.height]);
    expect(Buffer.compare(mirroredCard.rgb.data, plainCard.rgb.data)).toBe(0);
    expect(Buffer.compare(unflopped.rgb.data, plainCard.rgb.data)).not.toBe(0);
  }, 60_000);
});
