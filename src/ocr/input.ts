/**
 * Document input: type sniffing from magic bytes and PDF pages (text layer words, or a ~300 dpi
 * raster of pages without one) through mupdf (WASM, loaded lazily).
 */
import { INVALID_DOCUMENT_MESSAGE } from './budget.js';
import { OcrError } from './engine.js';
import type { OcrWord } from './words.js';
import { soleImage } from './pdf-image.js';

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

/**
 * One PDF page: its text-layer words (in 300 dpi pixels) or, where it has none, its raster: a 200 dpi
 * PNG render, or the page's one stored image as it is stored (a JPEG or a PNG at its own resolution:
 * pdf-image.ts soleImage). `png` holds whichever of these; the preparation decodes either.
 */
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
 * at PDF_RASTER_DPI (a page that is one stored image: that image, pdf-image.ts soleImage); where 300 dpi would exceed `limits.maxPagePixels`, both use the resolution that
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
        // A page that is one stored image covering it is that image (pdf-image.ts soleImage): its own bytes, not rendered.
        const stored = await soleImage(mupdf, page, kr, limits.maxPagePixels);
        if (stored) pages.push({ kind: 'image', png: stored });
        else {
          const pix = page.toPixmap(mupdf.Matrix.scale(kr, kr), mupdf.ColorSpace.DeviceRGB, false, true);
          pages.push({ kind: 'image', png: Buffer.from(pix.asPNG()) });
          pix.destroy();
        }
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

/**
 * Relative change of type size, or shift of baseline in type sizes, between two characters of a
 * text-layer line that ends a word (a label and its value have different sizes and baselines).
 */
const TYPE_CHANGE = 0.2;
/** Height of a capital over the baseline, in type sizes (Helvetica, Times and Courier: 0.66-0.72). */
const CAP_HEIGHT = 0.7;

/**
 * Words of a page's structured text (mupdf), in px at `k` px per point: characters split on whitespace,
 * on a jump along the line and where the type's size or baseline changes (TYPE_CHANGE); boxes of
 * upright text from the baseline to the capitals' height (CAP_HEIGHT), of turned text from the quads.
 */
function textLayerWords(stext: { walk(w: object): void; destroy(): void }, k: number, ox: number, oy: number): OcrWord[] {
  const words: OcrWord[] = [];
  let cur: OcrWord | null = null;
  const flush = (): void => {
    if (cur && cur.text.trim()) words.push(cur);
    cur = null;
  };
  let last: { size: number; baseline: number } | null = null;
  stext.walk({
    onChar(c: string, origin: number[], _font: unknown, size: number, quad: number[]) {
      if (/\s/.test(c)) {
        flush();
        return;
      }
      // Type of another size or on another baseline starts a new word: a label printed edge to edge with
      // its value (no space between them) is one line of mupdf's structured text ("NOMESUELI ...").
      if (cur && last && (Math.abs(size - last.size) > TYPE_CHANGE * last.size || Math.abs(origin[1] - last.baseline) > TYPE_CHANGE * last.size)) flush();
      last = { size, baseline: origin[1] };
      const xs = [quad[0], quad[2], quad[4], quad[6]].map((x) => (x - ox) * k);
      // Upright text: the box is the capitals' ink (cap height over the baseline), as a recogniser boxes
      // it, not the font's ascender-to-descender quad (1.4 x the type size: a value printed close under
      // its label overlapped the label's box and was read as the same line).
      // Turned text keeps its quad's box.
      const upright = quad[2] > quad[0] && Math.abs(quad[3] - quad[1]) < 0.05 * size;
      const ys = upright ? [origin[1] - CAP_HEIGHT * size, origin[1]].map((y) => (y - oy) * k) : [quad[1], quad[3], quad[5], quad[7]].map((y) => (y - oy) * k);
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
