/** ANSI INCITS 378-2004 finger minutiae records (the ISO 2005 view block behind a different header, 2-degree angles). */
import type { FingerTemplate } from './model.js';
import { invalidTemplate, RecordReader, RecordWriter } from './byte-io.js';
import { checkIdentifier, checkLength, identifierBytes, readViews, writeViews, type FmrFlavour } from './fmr-common.js';

const FLAVOUR: FmrFlavour = 'ANSI INCITS 378-2004';

/**
 * Parses an ANSI INCITS 378-2004 record (2-byte length, or 0 followed by a 4-byte length; CBEFF
 * product id; angle unit 2 degrees). Throws FingerError INVALID_TEMPLATE with the exact field for
 * truncated or inconsistent records.
 */
export function parseAnsi378(bytes: Uint8Array): FingerTemplate {
  checkIdentifier(bytes, FLAVOUR, ' 20');
  const head = new RecordReader(bytes, FLAVOUR);
  head.skip(8, 'identifier');
  let length = head.u16('record length');
  let headerEnd = 10;
  if (length === 0) {
    length = head.u32('extended record length');
    headerEnd = 14;
  }
  checkLength(length, bytes.length, headerEnd + 16, FLAVOUR);
  const r = new RecordReader(bytes, FLAVOUR, length);
  r.offset = headerEnd;
  const cbeffProductId = r.u32('CBEFF product identifier');
  const captureEquipment = r.u16('capture equipment');
  const width = r.u16('image width');
  const height = r.u16('image height');
  const xResolutionPpcm = r.u16('x resolution');
  const yResolutionPpcm = r.u16('y resolution');
  const viewCount = r.u8('number of finger views');
  r.u8('reserved byte');
  const views = readViews(r, viewCount, 'ANSI INCITS 378-2004');
  if (r.offset !== length) invalidTemplate(`${FLAVOUR}: ${length - r.offset} unexplained bytes after the last view`);
  return { width, height, xResolutionPpcm, yResolutionPpcm, views, captureEquipment, cbeffProductId };
}

/** Writes an ANSI INCITS 378-2004 record (inverse of `parseAnsi378`). */
export function writeAnsi378(t: FingerTemplate): Uint8Array {
  const body = new RecordWriter();
  body.u32(t.cbeffProductId ?? 0).u16(t.captureEquipment ?? 0).u16(t.width).u16(t.height);
  body.u16(t.xResolutionPpcm).u16(t.yResolutionPpcm).u8(t.views.length).u8(0);
  writeViews(body, t.views, 'ANSI INCITS 378-2004');
  const bodyBytes = body.toBytes();
  const w = new RecordWriter();
  w.bytes(identifierBytes(' 20'));
  if (bodyBytes.length + 10 <= 0xffff) w.u16(bodyBytes.length + 10);
  else w.u16(0).u32(bodyBytes.length + 14);
  w.bytes(bodyBytes);
  return w.toBytes();
}
