/**
 * A PDF page that is one stored image covering it is read as that image (pdf-image.ts soleImage, via
 * input.ts readPdf; round 27, S): the same pixels as the 200 dpi render, without rendering or encoding;
 * every other page is rendered as before.
 */
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { readPdf, PDF_RASTER_DPI } from '../../src/ocr/input.js';
import { pngOfDeflatedRows, soleImage } from '../../src/ocr/pdf-image.js';

/** What soleImage gives for the first page of `pdf` (null: rendered). */
async function soleOf(pdf: Uint8Array): Promise<Buffer | null> {
  const mupdf = await import('mupdf');
  const d = mupdf.Document.openDocument(pdf, 'application/pdf');
  return soleImage(mupdf, d.loadPage(0), PDF_RASTER_DPI / 72, 12_000_000);
}

const W = 1278, H = 819;
/** A card-sized RGB picture with detail in every row and column (so a resampled or shifted copy differs). */
async function picture(): Promise<Buffer> {
  const data = Buffer.alloc(W * H * 3);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = 3 * (y * W + x);
    data[i] = (x * 7 + y * 3) & 255; data[i + 1] = ((x ^ y) * 5) & 255; data[i + 2] = (x * y) & 255;
  }
  return data;
}
const pt = (px: number): number => (px * 72) / PDF_RASTER_DPI;
const rawOf = async (bytes: Uint8Array): Promise<{ data: Buffer; info: sharp.OutputInfo }> => sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });

/** A PDF of one page: `draw` places the embedded image(s) on a page of `size` points. */
async function pdfOf(img: Buffer, kind: 'png' | 'jpg', size: [number, number], draw: (page: ReturnType<PDFDocument['addPage']>, image: Awaited<ReturnType<PDFDocument['embedPng']>>, doc: PDFDocument) => Promise<void> | void): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(size);
  const image = kind === 'png' ? await doc.embedPng(img) : await doc.embedJpg(img);
  await draw(page, image, doc);
  return doc.save();
}

describe('a PDF page that is one stored image (pdf-image.ts soleImage)', () => {
  it('a PNG covering the page comes back as the same pixels the 200 dpi render gave', async () => {
    const raw = await picture();
    const png = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
    const pdf = await pdfOf(png, 'png', [pt(W), pt(H)], (page, image) => page.drawImage(image, { x: 0, y: 0, width: pt(W), height: pt(H) }));
    const pages = await readPdf(pdf);
    expect(pages).toHaveLength(1);
    const p = pages[0];
    if (p.kind !== 'image') throw new Error('not an image page');
    // Taken as stored (not a render): the bytes soleImage wraps about the PDF's stream.
    const stored = await soleOf(pdf);
    expect(stored).not.toBeNull();
    expect(Buffer.compare(p.png, stored as Buffer)).toBe(0);
    const got = await rawOf(p.png);
    expect([got.info.width, got.info.height]).toEqual([W, H]);
    expect(got.data.equals(raw)).toBe(true);
    // The render's pixels (the path taken before): the same.
    const mupdf = await import('mupdf');
    const d = mupdf.Document.openDocument(pdf, 'application/pdf');
    const k = PDF_RASTER_DPI / 72;
    const pix = d.loadPage(0).toPixmap(mupdf.Matrix.scale(k, k), mupdf.ColorSpace.DeviceRGB, false, true);
    const rendered = await rawOf(pix.asPNG());
    expect(rendered.data.equals(got.data)).toBe(true);
  });

  it('a JPEG covering the page comes back as its own bytes', async () => {
    const jpg = await sharp(await picture(), { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
    const pdf = await pdfOf(jpg, 'jpg', [pt(W), pt(H)], (page, image) => page.drawImage(image, { x: 0, y: 0, width: pt(W), height: pt(H) }));
    const [p] = await readPdf(pdf);
    if (p.kind !== 'image') throw new Error('not an image page');
    expect(Buffer.compare(p.png, jpg)).toBe(0);
  });

  it('renders a page where the image lies on a sheet with margins, a page of two images, and an image with text over it', async () => {
    const png = await sharp(await picture(), { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
    const a4: [number, number] = [595.28, 841.89];
    const margins = await pdfOf(png, 'png', a4, (page, image) => page.drawImage(image, { x: 67.64, y: 400, width: 460, height: 460 * H / W }));
    const two = await pdfOf(png, 'png', [pt(W), pt(2 * H)], (page, image) => {
      page.drawImage(image, { x: 0, y: 0, width: pt(W), height: pt(H) });
      page.drawImage(image, { x: 0, y: pt(H), width: pt(W), height: pt(H) });
    });
    const texted = await pdfOf(png, 'png', [pt(W), pt(H)], async (page, image, doc) => {
      page.drawImage(image, { x: 0, y: 0, width: pt(W), height: pt(H) });
      page.drawText('x', { x: 10, y: 10, size: 8, font: await doc.embedFont(StandardFonts.Helvetica) });
    });
    const k = PDF_RASTER_DPI / 72;
    for (const [pdf, size] of [[margins, a4], [two, [pt(W), pt(2 * H)]], [texted, [pt(W), pt(H)]]] as const) {
      expect(await soleOf(pdf)).toBeNull();
      const [p] = await readPdf(pdf);
      if (p.kind !== 'image') throw new Error('not an image page');
      const meta = await sharp(p.png).metadata();
      expect(meta.format).toBe('png');
      // A render: the page's size at PDF_RASTER_DPI (not the image's).
      expect(Math.abs((meta.width ?? 0) - size[0] * k)).toBeLessThanOrEqual(1);
      expect(Math.abs((meta.height ?? 0) - size[1] * k)).toBeLessThanOrEqual(1);
    }
  });

  it('pngOfDeflatedRows wraps deflated rows with filter bytes as a PNG', async () => {
    const { deflateSync } = await import('node:zlib');
    const rows = Buffer.from([0, 10, 20, 30, 0, 40, 50, 60]); // two rows of one RGB pixel, filter 0
    const png = pngOfDeflatedRows(deflateSync(rows), 1, 2, 3);
    const got = await rawOf(png);
    expect([...got.data]).toEqual([10, 20, 30, 40, 50, 60]);
  });
});
