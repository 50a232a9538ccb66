/**
 * Issue #17, twenty-eighth round: light type on a dark ground (final26's desktop screenshots of the CNH-e
 * app in its dark theme, 3.3 % read on the old reader). The frame's polarity is told from its own tiles
 * (polarity.ts: the minority tone of each patch of type, the runs of a stroke against a ground's) and a
 * light-on-dark frame is turned negative before the card is looked for (frame.ts findCard); a page of dark
 * type, a light card on a dark desk and a dark phone app around a light card are never turned.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnhReader, type CnhReader } from '../../src/ocr/index.js';
import { findCard } from '../../src/ocr/frame.js';
import { invertLuma, lightOnDark, polarityVotes } from '../../src/ocr/polarity.js';
import { prepareImage } from '../../src/ocr/preprocess.js';
import { groundTruth } from '../fixtures/cnh/index.js';
import { model2022Back, model2022Front, oldFront } from '../fixtures/cnh/layout.js';
import { fakePerson, rng } from '../fixtures/cnh/people.js';
import { desktopShot } from '../fixtures/cnh/final26-screen.js';
import { printed } from '../fixtures/cnh/widened-print.js';

/** Lines of words in `fg` on `bg` (PNG, w x h), text 18 px tall, with a `box` of another ground behind them when given. */
async function textPage(w: number, h: number, fg: string, bg: string, box?: { x: number; y: number; w: number; h: number; fill: string }): Promise<Buffer> {
  const lines = Array.from({ length: 12 }, (_, k) => `<text x="${(box?.x ?? 0) + 30}" y="${(box?.y ?? 0) + 40 + 30 * k}" font-family="DejaVu Sans" font-size="18" fill="${fg}">CARTEIRA NACIONAL 0${k} 233.429.375-05 DEODÁPOLIS</text>`).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="${bg}"/>${box ? `<rect x="${box.x}" y="${box.y}" width="${box.w}" height="${box.h}" fill="${box.fill}"/>` : ''}${lines}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const votesOf = async (png: Buffer) => {
  const { data, info } = await sharp(png).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return polarityVotes(data, info.width, info.height, info.channels, 1);
};

describe('the polarity of a frame\'s type (polarity.ts)', () => {
  it('calls light type on a dark ground light-on-dark, and dark type on a light ground not', async () => {
    expect(lightOnDark(await votesOf(await textPage(900, 420, '#e8eaed', '#1e1f22')))).toBe(true);
    expect(lightOnDark(await votesOf(await textPage(900, 420, '#1f1f1f', '#f3f4f6')))).toBe(false);
    // A negative of a page is called the other way.
    const { data, info } = await sharp(await textPage(900, 420, '#202020', '#f0f0f0')).greyscale().raw().toBuffer({ resolveWithObject: true });
    expect(lightOnDark(polarityVotes(data, info.width, info.height))).toBe(false);
    invertLuma(data, 1);
    expect(lightOnDark(polarityVotes(data, info.width, info.height))).toBe(true);
  });

  it('never turns a light card with dark type on a dark desk, nor a dark phone app around a light card', async () => {
    // A light card on a dark desk: the card's sides on the desk are edges, not light strokes.
    const onDesk = await textPage(1400, 900, '#202020', '#2a2520', { x: 200, y: 150, w: 980, h: 560, fill: '#e4ede0' });
    const desk = await votesOf(onDesk);
    expect(lightOnDark(desk)).toBe(false);
    expect(desk.dark).toBeGreaterThan(desk.light);
    // A phone app in its dark mode showing the light card (final26 #39's kind): a light title, a dark-type card.
    const card = await printed([oldFront(fakePerson(29_017))], 'DejaVu Sans', 29_017, {}, 1);
    const phone = await sharp({ create: { width: 1080, height: 2000, channels: 3, background: '#121212' } })
      .composite([{ input: await sharp(card).resize(1000).png().toBuffer(), left: 40, top: 400 },
        { input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="120"><text x="10" y="80" font-family="DejaVu Sans" font-size="56" font-weight="bold" fill="#f0f0f0">CNH do Brasil</text></svg>'), left: 30, top: 120 }])
      .png().toBuffer();
    expect(lightOnDark(await votesOf(phone))).toBe(false);
  });

  it('keeps a red ink red when a colour frame is turned negative (luma inverted, hue kept)', () => {
    // Bands green, red, blue (frame.ts's order): a red ink (luma ~59) and a dark grey ground.
    const px = new Uint8Array([20, 150, 20, 30, 30, 30]);
    invertLuma(px, 3);
    // The ink's luma inverted (~196), its red kept above its green and blue; the grey ground turned light grey.
    expect(0.587 * px[0] + 0.299 * px[1] + 0.114 * px[2]).toBeGreaterThan(185);
    expect(px[1]).toBeGreaterThan(px[0] + 60);
    expect(px[2]).toBe(px[0]);
    expect([px[3], px[4], px[5]]).toEqual([225, 225, 225]);
  });
});

/** A card of `seed`'s person in the app's dark theme on a 1920 x 1080 desktop with sub-pixel text (final26-screen.ts). */
async function darkDesktop(seed: number, kind: 'invert' | 'remap'): Promise<{ bytes: Buffer; truth: Record<string, string> }> {
  const p = fakePerson(seed);
  const r = rng(seed);
  // desktopShot's draws: the canvas (< 0.6: 1920 x 1080), side by side, BGR, the theme (< 0.5: invert), its colours.
  const draws = [0.1, 0.9, 0.5, kind === 'invert' ? 0.1 : 0.9, 0.4, 0.4];
  let k = 0;
  const drawn = (): number => (k < draws.length ? draws[k++] : r());
  const bytes = await desktopShot([model2022Front(p), model2022Back(p)], 'DejaVu Sans', seed, drawn, {}, true);
  return { bytes, truth: groundTruth(p, '2022', false) };
}

describe('a dark-theme screenshot turned negative before the card is found (frame.ts)', () => {
  it('prepares a page of dark type on a light ground from a dark-theme desktop', async () => {
    const { bytes } = await darkDesktop(29_101, 'remap');
    const prepared = await prepareImage(bytes);
    const { data, info } = await sharp(prepared.png).raw().toBuffer({ resolveWithObject: true });
    // The prepared page's type is dark on a light ground (the old reader handed over light type on a dark page).
    const votes = polarityVotes(data, info.width, info.height, info.channels);
    expect(lightOnDark(votes)).toBe(false);
    expect(votes.dark).toBeGreaterThan(5 * votes.light);
  });

  it('leaves a page of dark type exactly as it was (no negative)', async () => {
    const p = fakePerson(29_103);
    const card = await sharp(await printed([model2022Front(p)], 'DejaVu Sans', 29_103, {}, 1)).flatten({ background: '#ffffff' }).png().toBuffer();
    const found = await findCard(card);
    const { data } = await sharp(card).extractChannel(1).raw().toBuffer({ resolveWithObject: true });
    // Not turned: the found card's ground is the card's light paper, as in the file.
    let sum = 0;
    for (const v of found.rgb.data) sum += v;
    let fileSum = 0;
    for (const v of data) fileSum += v;
    expect(sum / found.rgb.data.length).toBeGreaterThan(180);
    expect(fileSum / data.length).toBeGreaterThan(180);
  });
});

describe('reading a dark-theme desktop screenshot (the whole reader)', () => {
  let reader: CnhReader;
  beforeAll(async () => {
    reader = await createCnhReader({ poolSize: 1, maxQueue: 4, budget: { timeMs: 100_000 } });
  });
  afterAll(async () => {
    await reader?.close();
  });

  it('reads the values of a dark-theme card (luma inverted, hue kept) on a desktop', async () => {
    const { bytes, truth } = await darkDesktop(29_107, 'invert');
    const res = await reader.read(bytes);
    const got = Object.fromEntries(Object.entries(res.campos).map(([f, v]) => [f, v.valor]));
    for (const f of ['cpf', 'data_nascimento', 'numero_cnh', 'data_validade']) expect(got[f], f).toBe(truth[f]);
  }, 240_000);
});
