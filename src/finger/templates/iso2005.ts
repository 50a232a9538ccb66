/** ISO/IEC 19794-2:2005 finger minutiae records (the stored template format). */
import type { FingerTemplate } from './model.js';
import { invalidTemplate, RecordReader, RecordWriter } from './byte-io.js';
import { checkIdentifier, checkLength, identifierBytes, readViews, writeViews, type FmrFlavour } from './fmr-common.js';

const FLAVOUR: FmrFlavour = 'ISO 19794-2:2005';

/**
 * Parses an ISO/IEC 19794-2:2005 finger minutiae record (24-byte header, views, 6-byte minutiae,
 * angle unit 360/256 degrees). Bytes after the declared record length (padding) are ignored.
 * Throws FingerError INVALID_TEMPLATE with the exact field for truncated or inconsistent records.
 */
export function parseIso2005(bytes: Uint8Array): FingerTemplate {
  checkIdentifier(bytes, FLAVOUR, ' 20');
  const head = new RecordReader(bytes, FLAVOUR);
  head.skip(8, 'identifier');
  const length = head.u32('record length');
  checkLength(length, bytes.length, 24, FLAVOUR);
  const r = new RecordReader(bytes, FLAVOUR, length);
  r.offset = 12;
  const captureEquipment = r.u16('capture equipment');
  const width = r.u16('image width');
  const height = r.u16('image height');
  const xResolutionPpcm = r.u16('x resolution');
  const yResolutionPpcm = r.u16('y resolution');
  const viewCount = r.u8('number of finger views');
  r.u8('reserved byte');
  const views = readViews(r, viewCount, 'ISO 19794-2:2005');
  if (r.offset !== length) invalidTemplate(`${FLAVOUR}: ${length - r.offset} unexplained bytes after the last view`);
  return { width, height, xResolutionPpcm, yResolutionPpcm, views, captureEquipment };
}

/** Writes an ISO/IEC 19794-2:2005 record (inverse of `parseIso2005`). */
export function writeIso2005(t: FingerTemplate): Uint8Array {
  const w = new RecordWriter();
  w.bytes(identifierBytes(' 20')).u32(0);
  w.u16(t.captureEquipment ?? 0).u16(t.width).u16(t.height).u16(t.xResolutionPpcm).u16(t.yResolutionPpcm);
  w.u8(t.views.length).u8(0);
  writeViews(w, t.views, 'ISO 19794-2:2005');
  w.patchU32(8, w.length);
  return w.toBytes();
}
