/**
 * A PDF page that is nothing but one stored image covering it (a scanner's or a phone app's PDF: one
 * JPEG or PNG per page) handed to the reader as that image's own bytes, instead of rendered through
 * mupdf and encoded again as a PNG (input.ts readPdf).
 *
 * Why it is the same picture: such a page's raster is the image itself, at the image's resolution; a
 * render at PDF_RASTER_DPI only resamples it (at ~200 dpi, 1:1: mupdf fits an image drawn at its own
 * size to the pixel grid and copies it) and the PNG round trip is lossless. The preparation
 * (preprocess.ts) scales the card found in it to CARD_HEIGHT_PX whatever the input's resolution. What it
 * saves: the render (0.2-0.5 CPU s for an A4 page at 200 dpi, measured on final24's pages), the PNG
 * encode (0.12-0.2 s) and the inflate of the page's PNG in the preparation: the stored stream is passed
 * on as it is (a JPEG stream is a JPEG file; deflated rows with PNG predictors are wrapped in a PNG's
 * chunks, no pixel decoded; plain deflated rows are inflated and stored in an uncompressed PNG).
 *
 * Anything else is rendered as before: a page with anything drawn besides the image (text, paths, a
 * second image, an annotation), an image not upright and axis-aligned, not covering the page (a card
 * image placed on a white sheet: the render's margins are part of what the card finder reads), finer
 * than the render would be (more pixels to decode than the render's), with a mask or soft mask, a
 * /Decode array, a colour space other than DeviceGray or DeviceRGB, not 8 bits per component, a filter
 * other than DCTDecode alone or FlateDecode (plain or with PNG predictors), or a JPEG with an EXIF orientation (a
 * PDF viewer ignores it; sharp would turn the picture).
 */
import { crc32, deflateSync, inflateSync } from 'node:zlib';
import sharp from 'sharp';

type Mupdf = typeof import('mupdf');
type MupdfPage = InstanceType<Mupdf['PDFPage']>;

/** An image covers the page when each of its edges is within this share of the page's side (plus COVER_PT) of the page's edge. */
const COVER_SHARE = 0.005;
const COVER_PT = 1;
/** The image is used when it has at most this many times the render's pixels along each side (a finer image is rendered: fewer pixels to decode). */
const MAX_OVER_RENDER = 1.1;

/** PNG file bytes of deflated rows with PNG filter bytes (a PDF's FlateDecode stream with /Predictor 10-15): signature, IHDR, one IDAT, IEND. */
export function pngOfDeflatedRows(zlibRows: Uint8Array, width: number, height: number, channels: 1 | 3): Buffer {
  const chunk = (type: string, data: Uint8Array): Buffer => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td) >>> 0);
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per component
  ihdr[9] = channels === 3 ? 2 : 0; // colour type: RGB or gray
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlibRows), chunk('IEND', new Uint8Array(0))]);
}

/** A stream's stored (still encoded) bytes, copied out of mupdf's memory. */
function rawStream(o: InstanceType<Mupdf['PDFObject']>): Buffer {
  const raw = o.readRawStream();
  try {
    return Buffer.from(raw.asUint8Array());
  } finally {
    raw.destroy();
  }
}

/** `o` resolved; a missing entry (mupdf's Null, which cannot be resolved) as it is. */
const resolved = (o: InstanceType<Mupdf['PDFObject']>): InstanceType<Mupdf['PDFObject']> => (o.isNull() ? o : o.resolve());

/** A name or a one-name array's name (PDF filters and colour spaces are written either way); undefined otherwise. */
function oneName(o: InstanceType<Mupdf['PDFObject']>): string | undefined {
  const r = resolved(o);
  if (r.isName()) return r.asName();
  if (r.isArray() && r.length === 1 && resolved(r.get(0)).isName()) return resolved(r.get(0)).asName();
  return undefined;
}

/**
 * The stored image's bytes (a JPEG, or a PNG wrapped about the stored rows: pngOfDeflatedRows) when
 * `page` is one upright image covering it at no more than `pxPerPt` (x MAX_OVER_RENDER) and at most
 * `maxPixels` pixels (module comment); null when the page must be rendered. Never throws for a page it
 * cannot use (anything unexpected: null).
 */
export async function soleImage(mupdf: Mupdf, page: InstanceType<Mupdf['Page']>, pxPerPt: number, maxPixels: number): Promise<Buffer | null> {
  try {
    if (!(page instanceof mupdf.PDFPage)) return null;
    const [bx0, by0, bx1, by1] = page.getBounds();
    const wPt = bx1 - bx0, hPt = by1 - by0;
    // What the page draws: exactly one image and nothing else.
    let images = 0, other = 0;
    let ctm: number[] = [];
    let size = [0, 0];
    const no = (): void => { other++; };
    const device = new mupdf.Device({
      fillImage(image, m) { images++; ctm = [...m]; size = [image.getWidth(), image.getHeight()]; },
      fillPath: no, strokePath: no, fillText: no, strokeText: no, clipText: no, clipStrokeText: no, fillShade: no, fillImageMask: no,
      clipImageMask: no, clipPath: no, clipStrokePath: no, beginMask: no, beginGroup: no, beginTile: () => { other++; return 0; },
    });
    try {
      page.run(device, mupdf.Matrix.identity);
    } finally {
      device.close();
      device.destroy();
    }
    if (images !== 1 || other) return null;
    const [a, b, c, d, e, f] = ctm;
    if (!(a > 0 && d > 0) || Math.abs(b) > 1e-6 * a || Math.abs(c) > 1e-6 * d) return null;
    const near = (x: number, y: number, side: number): boolean => Math.abs(x - y) <= COVER_SHARE * side + COVER_PT;
    if (!near(e, bx0, wPt) || !near(f, by0, hPt) || !near(e + a, bx1, wPt) || !near(f + d, by1, hPt)) return null;
    const [w, h] = size;
    if (w > MAX_OVER_RENDER * a * pxPerPt || h > MAX_OVER_RENDER * d * pxPerPt || w * h > maxPixels) return null;
    // The image's stream: the page's one XObject.
    const resources = resolved((page as MupdfPage).getObject().getInheritable('Resources'));
    if (!resources.isDictionary()) return null;
    const xobjects = resolved(resources.get('XObject'));
    if (!xobjects.isDictionary()) return null;
    const streams: InstanceType<Mupdf['PDFObject']>[] = [];
    // Kept as the indirect reference: mupdf knows a stream (isStream, readRawStream) by its object number.
    xobjects.forEach((v) => { streams.push(v); });
    if (streams.length !== 1 || !streams[0].isStream()) return null;
    const img = streams[0];
    if (oneName(img.get('Subtype')) !== 'Image' || img.get('Width').asNumber() !== w || img.get('Height').asNumber() !== h) return null;
    if (img.get('BitsPerComponent').asNumber() !== 8 || !img.get('SMask').isNull() || !img.get('Mask').isNull() || !img.get('Decode').isNull()) return null;
    const mask = resolved(img.get('ImageMask'));
    if (mask.isBoolean() && mask.asBoolean()) return null;
    const space = oneName(img.get('ColorSpace'));
    const channels = space === 'DeviceRGB' ? 3 : space === 'DeviceGray' ? 1 : 0;
    if (!channels) return null;
    const filter = oneName(img.get('Filter'));
    const parms = resolved(img.get('DecodeParms'));
    const parm = (k: string): number | undefined => {
      const p = parms.isArray() && parms.length === 1 ? resolved(parms.get(0)) : parms;
      if (!p.isDictionary()) return undefined;
      const v = resolved(p.get(k));
      return v.isNumber() ? v.asNumber() : undefined;
    };
    if (filter === 'DCTDecode') {
      if (!parms.isNull()) return null;
      const jpg = rawStream(img);
      const meta = await sharp(jpg).metadata();
      if (meta.format !== 'jpeg' || meta.width !== w || meta.height !== h || meta.channels !== channels || (meta.orientation ?? 1) !== 1) return null;
      return jpg;
    }
    if (filter === 'FlateDecode') {
      const predictor = parm('Predictor');
      if (predictor === undefined || predictor === 1) {
        // Plain deflated rows (no predictor: pdf-lib's embedPng, many writers): inflated, each row given
        // PNG's "none" filter byte, stored uncompressed (deflate level 0: no search, ~3 MB a card side).
        if (!parms.isNull() && (parm('Colors') ?? channels) !== channels) return null;
        const rows = inflateSync(rawStream(img));
        const stride = w * channels;
        if (rows.length < stride * h) return null;
        const filtered = Buffer.alloc((stride + 1) * h);
        for (let y = 0; y < h; y++) rows.copy(filtered, y * (stride + 1) + 1, y * stride, (y + 1) * stride);
        return pngOfDeflatedRows(deflateSync(filtered, { level: 0 }), w, h, channels as 1 | 3);
      }
      if (predictor < 10 || predictor > 15) return null;
      if ((parm('Colors') ?? 1) !== channels || (parm('BitsPerComponent') ?? 8) !== 8 || (parm('Columns') ?? 1) !== w) return null;
      return pngOfDeflatedRows(rawStream(img), w, h, channels as 1 | 3);
    }
    return null;
  } catch {
    return null;
  }
}
