/**
 * Document input: type sniffing from magic bytes and PDF pages (text layer words, or a ~300 dpi
 * raster of pages without one) through mupdf (WASM, loaded lazily).
 */
import { INVALID_DOCUMENT_MESSAGE } from './budget.js';
import { OcrError } from './engine.js';
import type { OcrWord } from './words.js';

export type DocumentMime = 'image/jpeg' | 'image/png' | 'application/pdf';

/**
 * MIME type from the first bytes: JPEG `FF D8 FF`, PNG `89 50 4E 47 0D 0A 1A 0A`, PDF `%PDF-` (within
 * the first 1024 bytes, as readers tolerate leading junk). Names and client types are never used.
 * Throws OcrError UNSUPPORTED_TYPE otherwise.
 */
export function sniffMime(bytes: Uint8Array): DocumentMime {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  const head = Buffer.from(bytes.subarray(0, Math.min(1024, bytes.length))).toString('latin1');
  if (head.includes('%PDF-')) return 'application/pdf';
  throw new OcrError('UNSUPPORTED_TYPE', 'Tipo de arquivo não suportado. Use PNG, JPG ou PDF');
}

/** One PDF page: its text-layer words (in 300 dpi pixels) or, where it has none, a 200 dpi PNG. */
export type PdfPage =
  | { kind: 'text'; words: OcrWord[]; widthPx: number; heightPx: number }
  | { kind: 'image'; png: Buffer };

/** Text-layer coordinates: PDF points -> pixels at this resolution. */
export const PDF_DPI = 300;
/**
 * Raster of a page without a text layer. A CNH-e card (~460 pt wide) comes out ~1280 px wide, the
 * width the card is prepared at (preprocess.ts CARD_WIDTH_PX), so nothing finer would reach the
 * recogniser; 300 dpi cost twice the pixels to render, encode and decode for the same prepared image.
 */
export const PDF_RASTER_DPI = 200;
/** A page needs this many text-layer characters to be read from its text layer. */
const MIN_TEXT_CHARS = 40;

type Mupdf = typeof import('mupdf');
let mupdfModule: Promise<Mupdf> | null = null;
const loadMupdf = (): Promise<Mupdf> => (mupdfModule ??= import('mupdf'));

/** Limits of `readPdf` (see budget.ts). */
export interface PdfLimits {
  /** Pages read; further pages are ignored. */
  maxPages: number;
  /** Largest raster of one page, pixels: larger pages are rendered at a lower resolution to fit. */
  maxPagePixels: number;
}

/**
 * Splits a PDF into pages (at most `limits.maxPages`): text-layer words in 300 dpi pixels, or a raster
 * at PDF_RASTER_DPI; where 300 dpi would exceed `limits.maxPagePixels`, both use the resolution that
 * fits. Runs mupdf synchronously: call it on a decode worker (decode-pool.ts), never on the
 * event loop's thread. Throws OcrError INVALID_DOCUMENT when mupdf cannot open or read the file.
 */
export async function readPdf(bytes: Uint8Array, limits: PdfLimits = { maxPages: 4, maxPagePixels: 12_000_000 }): Promise<PdfPage[]> {
  const mupdf = await loadMupdf();
  let doc: InstanceType<Mupdf['Document']>;
  try {
    doc = mupdf.Document.openDocument(bytes, 'application/pdf');
  } catch {
    throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
  }
  const pages: PdfPage[] = [];
  try {
    for (let i = 0; i < Math.min(doc.countPages(), limits.maxPages); i++) {
      const page = doc.loadPage(i);
      const [bx0, by0, bx1, by1] = page.getBounds();
      const wPt = Math.max(1, bx1 - bx0), hPt = Math.max(1, by1 - by0);
      const k = Math.min(PDF_DPI / 72, Math.sqrt(limits.maxPagePixels / (wPt * hPt)));
      if (!Number.isFinite(k) || k <= 0) throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
      const words = textLayerWords(page.toStructuredText('preserve-whitespace'), k, bx0, by0);
      const chars = words.reduce((s, w) => s + w.text.length, 0);
      if (chars >= MIN_TEXT_CHARS) {
        pages.push({ kind: 'text', words, widthPx: wPt * k, heightPx: hPt * k });
      } else {
        const kr = Math.min(k, PDF_RASTER_DPI / 72);
        const pix = page.toPixmap(mupdf.Matrix.scale(kr, kr), mupdf.ColorSpace.DeviceRGB, false, true);
        pages.push({ kind: 'image', png: Buffer.from(pix.asPNG()) });
        pix.destroy();
      }
      page.destroy();
    }
  } catch (err) {
    if (err instanceof OcrError) throw err;
    throw new OcrError('INVALID_DOCUMENT', INVALID_DOCUMENT_MESSAGE);
  } finally {
    doc.destroy();
  }
  return pages;
}

/** Words of a page's structured text: characters split on whitespace, boxes from their quads. */
function textLayerWords(stext: { walk(w: object): void; destroy(): void }, k: number, ox: number, oy: number): OcrWord[] {
  const words: OcrWord[] = [];
  let cur: OcrWord | null = null;
  const flush = (): void => {
    if (cur && cur.text.trim()) words.push(cur);
    cur = null;
  };
  stext.walk({
    onChar(c: string, _origin: unknown, _font: unknown, _size: number, quad: number[]) {
      if (/\s/.test(c)) {
        flush();
        return;
      }
      const xs = [quad[0], quad[2], quad[4], quad[6]].map((x) => (x - ox) * k);
      const ys = [quad[1], quad[3], quad[5], quad[7]].map((y) => (y - oy) * k);
      const box = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
      // A large jump along the line also ends a word (text placed far apart without a space).
      if (cur && box.x0 - cur.x1 > (box.y1 - box.y0) * 0.8) flush();
      if (!cur) cur = { text: '', conf: 1, ...box };
      cur.text += c;
      cur.x0 = Math.min(cur.x0, box.x0);
      cur.y0 = Math.min(cur.y0, box.y0);
      cur.x1 = Math.max(cur.x1, box.x1);
      cur.y1 = Math.max(cur.y1, box.y1);
    },
    endLine() {
      flush();
    },
  });
  flush();
  stext.destroy();
  return words;
}
