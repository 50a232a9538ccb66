import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { findCard } from '../../src/ocr/frame.js';
import { darkenPaper, PAPER_DARK, paperMask } from '../../src/ocr/paper-backdrop.js';

/**
 * A frame `w` x `h`: a surface (`surface`: neutral paper with a printed form's labels and rules turned
 * 8 degrees, a dark brown desk, or an app's flat light page) with a pale green card (#e3efdc, its own dark type) lying on it at
 * (`x`, `y`), `cw` x `ch` px, turned `turn` degrees; JPEG as a phone would save it.
 */
async function frame(surface: 'form' | 'desk' | 'screen', o: { w?: number; h?: number; x?: number; y?: number; cw?: number; ch?: number; turn?: number; png?: boolean; photoPng?: boolean } = {}): Promise<Buffer> {
  const w = o.w ?? 1200, h = o.h ?? 800, cw = o.cw ?? 860, ch = o.ch ?? 540, x = o.x ?? 170, y = o.y ?? 130, turn = o.turn ?? 0;
  const rows: string[] = [];
  for (let r = 0; r < 14; r++) {
    rows.push(`<text x="${-100 + (r % 2) * 700}" y="${-60 + r * 70}" font-family="DejaVu Sans" font-size="30" fill="#2b2b2b">NOME DO REQUERENTE: TELEFONE</text>`);
    rows.push(`<line x1="${-100 + (r % 2) * 700 + 520}" y1="${-57 + r * 70}" x2="${600 + (r % 2) * 700}" y2="${-57 + r * 70}" stroke="#2b2b2b" stroke-width="1.5"/>`);
  }
  const ground = surface === 'screen' ? `<rect width="${w}" height="${h}" fill="rgb(242,243,241)"/>` : surface === 'form'
    ? `<rect width="${w}" height="${h}" fill="rgb(236,236,230)"/><g transform="rotate(8 ${w / 2} ${h / 2})">${rows.join('')}</g>`
    : `<rect width="${w}" height="${h}" fill="#5a4633"/>`;
  const lines = ['CARTEIRA NACIONAL DE HABILITACAO', 'NOME', 'MARIA DA SILVA SOUZA', 'CPF', '123.456.789-09', 'FILIACAO', 'JOSE DA SILVA'];
  const type = lines.map((t, i) => `<text x="${x + 60}" y="${y + 60 + i * 62}" font-family="DejaVu Sans" font-size="${i % 2 ? 18 : 28}" fill="#111">${t}</text>`).join('');
  const card = `<g transform="rotate(${turn} ${x + cw / 2} ${y + ch / 2})"><rect x="${x}" y="${y}" width="${cw}" height="${ch}" rx="24" fill="#e3efdc" stroke="#7d9a76" stroke-width="3"/>${type}</g>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${ground}${card}</svg>`;
  // A rendered screen (png) is saved as drawn; a photo carries the sensor's noise.
  if (o.png) return sharp(Buffer.from(svg)).removeAlpha().png().toBuffer();
  const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let seed = 7;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = Math.max(0, Math.min(255, data[i] + ((seed % 9) - 4)));
  }
  const photo = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  return o.photoPng ? photo.png().toBuffer() : photo.jpeg({ quality: 85 }).toBuffer();
}

async function colour(bytes: Buffer, width = 480): Promise<{ data: Uint8Array; w: number; h: number }> {
  const { data, info } = await sharp(bytes).resize({ width }).raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), w: info.width, h: info.height };
}

describe('a card lying on printed paper (paper-backdrop.ts)', () => {
  it('finds the tinted card on neutral printed paper, its type and photo inside, the form outside', async () => {
    const { data, w, h } = await colour(await frame('form'));
    const m = paperMask(data, w, h, 3);
    expect(m).not.toBeNull();
    const k = w / 1200;
    // Inside the card (on its type too), outside it (on the form's labels too).
    expect(m![Math.round(400 * k) * w + Math.round(600 * k)]).toBe(1);
    expect(m![Math.round((130 + 60 + 2 * 62 - 8) * k) * w + Math.round(300 * k)]).toBe(1);
    expect(m![Math.round(60 * k) * w + Math.round(600 * k)]).toBe(0);
    expect(m![Math.round(740 * k) * w + Math.round(100 * k)]).toBe(0);
    let area = 0;
    for (const v of m!) area += v;
    expect(area / (w * h)).toBeGreaterThan(0.42);
    expect(area / (w * h)).toBeLessThan(0.54);
  });

  it('leaves a card on a dark desk, and a card drawn edge to edge between a screen\'s light bars, to the card finder', async () => {
    const desk = await colour(await frame('desk'));
    expect(paperMask(desk.data, desk.w, desk.h, 3)).toBeNull();
    const screen = await colour(await frame('form', { w: 900, h: 1600, x: 10, y: 500, cw: 880, ch: 552 }));
    expect(paperMask(screen.data, screen.w, screen.h, 3)).toBeNull();
    // The same card with its margins, on a flat rendered page (a screenshot's app page): no surface.
    const flat = await colour(await frame('screen', { png: true }));
    expect(paperMask(flat.data, flat.w, flat.h, 3)).toBeNull();
  });

  it('crops the card from the form and none of the form (findCard)', async () => {
    const card = await findCard(await frame('form', { turn: 5 }));
    // The card's own size (860 x 540), not the frame's (1200 x 800) nor a part of it.
    expect(card.rgb.width).toBeGreaterThan(820);
    expect(card.rgb.width).toBeLessThan(900);
    expect(card.rgb.height).toBeGreaterThan(500);
    expect(card.rgb.height).toBeLessThan(580);
    expect(Math.abs(card.turned + 5)).toBeLessThan(1);
  });

  it('crops the card from a photo of the form saved as PNG (its colour copy shrunk from the one decode)', async () => {
    const card = await findCard(await frame('form', { turn: 5, photoPng: true }));
    expect(card.rgb.width).toBeGreaterThan(820);
    expect(card.rgb.width).toBeLessThan(900);
    expect(card.rgb.height).toBeGreaterThan(500);
    expect(card.rgb.height).toBeLessThan(580);
    expect(Math.abs(card.turned + 5)).toBeLessThan(1);
  });

  it('darkens the form around the card in the full frame from its colour copy, and refuses a copy of another shape (darkenPaper)', async () => {
    const bytes = await frame('form');
    const { data, info } = await sharp(bytes).extractChannel(1).raw().toBuffer({ resolveWithObject: true });
    const green = { data, width: info.width, height: info.height, channels: 1 as const };
    const copy = await colour(bytes);
    const out = darkenPaper(green, copy);
    expect(out).not.toBeNull();
    const at = (x: number, y: number): number => out!.rgb.data[y * info.width + x];
    // The form's corner and its labels' row above the card: the desk's level; the card's ground: as it was.
    expect(at(30, 30)).toBe(PAPER_DARK);
    expect(at(600, 60)).toBe(PAPER_DARK);
    expect(at(600, 400)).toBe(data[400 * info.width + 600]);
    expect(at(600, 400)).toBeGreaterThan(200);
    // The mask comes back in copy px, the card's share of the frame.
    expect(out!.mask.w).toBe(copy.w);
    let area = 0;
    for (const v of out!.mask.data) if (v === 255) area++;
    expect(area / (copy.w * copy.h)).toBeGreaterThan(0.42);
    // A copy of another frame's shape (a turned frame's) is no copy of this one.
    const turned = await colour(await sharp(bytes).rotate(90).toBuffer());
    expect(darkenPaper(green, turned)).toBeNull();
  });
});
