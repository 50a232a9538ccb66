import type { FingerTemplate, FingerView, Minutia } from './model.js';
import { fromAnsiAngle, fromIsoAngle, invalidTemplate, RecordReader, RecordWriter, toAnsiAngle, toIsoAngle, TYPE_CODES, typeFromCode } from './byte-io.js';

/** Shared body of ISO 19794-2:2005 and ANSI 378-2004: they differ in header and angle unit only. */
type Flavour = 'ISO 19794-2:2005' | 'ANSI INCITS 378-2004';

function readViews(r: RecordReader, count: number, flavour: Flavour): FingerView[] {
  const views: FingerView[] = [];
  for (let v = 0; v < count; v++) {
    const fingerPosition = r.u8(`finger position of view ${v}`);
    const viewByte = r.u8(`view number of view ${v}`);
    const fingerQuality = r.u8(`finger quality of view ${v}`);
    const minutiaCount = r.u8(`minutia count of view ${v}`);
    if (r.offset + minutiaCount * 6 > r.end) {
      invalidTemplate(
        `${flavour}: view ${v} declares ${minutiaCount} minutiae (${minutiaCount * 6} bytes) but only ${r.end - r.offset} bytes remain in the record`,
      );
    }
    const minutiae: Minutia[] = [];
    for (let m = 0; m < minutiaCount; m++) {
      const tx = r.u16(`minutia ${m}`);
      const ry = r.u16(`minutia ${m}`);
      const angle = r.u8(`minutia ${m}`);
      const quality = r.u8(`minutia ${m}`);
      if (flavour === 'ANSI INCITS 378-2004' && angle > 179) invalidTemplate(`${flavour}: minutia ${m} of view ${v} has angle ${angle} > 179`);
      minutiae.push({
        x: tx & 0x3fff,
        y: ry & 0x3fff,
        type: typeFromCode(tx >> 14),
        direction: flavour === 'ANSI INCITS 378-2004' ? fromAnsiAngle(angle) : fromIsoAngle(angle),
        quality,
      });
    }
    const extendedLength = r.u16(`extended data length of view ${v}`);
    const extendedData = r.take(extendedLength, `extended data of view ${v}`);
    views.push({ fingerPosition, viewNumber: viewByte >> 4, impressionType: viewByte & 15, fingerQuality, minutiae, extendedData });
  }
  return views;
}

function writeViews(w: RecordWriter, views: FingerView[], flavour: Flavour): void {
  for (const view of views) {
    if (view.minutiae.length > 255) invalidTemplate(`${flavour}: a view holds at most 255 minutiae`);
    w.u8(view.fingerPosition).u8(((view.viewNumber & 15) << 4) | (view.impressionType & 15)).u8(view.fingerQuality).u8(view.minutiae.length);
    for (const m of view.minutiae) {
      const x = Math.min(0x3fff, Math.max(0, Math.round(m.x)));
      const y = Math.min(0x3fff, Math.max(0, Math.round(m.y)));
      w.u16((TYPE_CODES[m.type] << 14) | x).u16(y);
      w.u8(flavour === 'ANSI INCITS 378-2004' ? toAnsiAngle(m.direction) : toIsoAngle(m.direction)).u8(m.quality);
    }
    w.u16(view.extendedData.length).bytes(view.extendedData);
  }
}

function checkMagic(bytes: Uint8Array, flavour: Flavour): void {
  if (bytes.length < 8) invalidTemplate(`${flavour}: record shorter than its 8-byte identifier`);
  if (bytes[0] !== 0x46 || bytes[1] !== 0x4d || bytes[2] !== 0x52 || bytes[3] !== 0) invalidTemplate(`${flavour}: wrong format identifier (expected "FMR\\0")`);
  if (bytes[4] !== 0x20 || bytes[5] !== 0x32 || bytes[6] !== 0x30 || bytes[7] !== 0) invalidTemplate(`${flavour}: wrong version (expected " 20\\0")`);
}

function checkLength(declared: number, available: number, minimum: number, flavour: Flavour): void {
  if (declared < minimum) invalidTemplate(`${flavour}: record length ${declared} is shorter than the header`);
  if (declared > available) invalidTemplate(`${flavour}: record truncated: header declares ${declared} bytes, ${available} present`);
}

/**
 * Parses an ISO/IEC 19794-2:2005 finger minutiae record (24-byte header, views, 6-byte minutiae,
 * angle unit 360/256 degrees). Bytes after the declared record length (padding) are ignored.
 * Throws FingerError INVALID_TEMPLATE with the exact field for truncated or inconsistent records.
 */
export function parseIso2005(bytes: Uint8Array): FingerTemplate {
  const flavour: Flavour = 'ISO 19794-2:2005';
  checkMagic(bytes, flavour);
  const head = new RecordReader(bytes, flavour);
  head.skip(8, 'identifier');
  const length = head.u32('record length');
  checkLength(length, bytes.length, 24, flavour);
  const r = new RecordReader(bytes, flavour, length);
  r.offset = 12;
  const captureEquipment = r.u16('capture equipment');
  const width = r.u16('image width');
  const height = r.u16('image height');
  const xResolutionPpcm = r.u16('x resolution');
  const yResolutionPpcm = r.u16('y resolution');
  const viewCount = r.u8('number of finger views');
  r.u8('reserved byte');
  const views = readViews(r, viewCount, flavour);
  if (r.offset !== length) invalidTemplate(`${flavour}: ${length - r.offset} unexplained bytes after the last view`);
  return { width, height, xResolutionPpcm, yResolutionPpcm, views, captureEquipment };
}

/** Writes an ISO/IEC 19794-2:2005 record (inverse of `parseIso2005`). */
export function writeIso2005(t: FingerTemplate): Uint8Array {
  const w = new RecordWriter();
  w.bytes(new Uint8Array([0x46, 0x4d, 0x52, 0, 0x20, 0x32, 0x30, 0])).u32(0);
  w.u16(t.captureEquipment ?? 0).u16(t.width).u16(t.height).u16(t.xResolutionPpcm).u16(t.yResolutionPpcm);
  w.u8(t.views.length).u8(0);
  writeViews(w, t.views, 'ISO 19794-2:2005');
  w.patchU32(8, w.length);
  return w.toBytes();
}

/**
 * Parses an ANSI INCITS 378-2004 record (2-byte length, or 0 followed by a 4-byte length; CBEFF
 * product id; angle unit 2 degrees). Throws INVALID_TEMPLATE like `parseIso2005`.
 */
export function parseAnsi378(bytes: Uint8Array): FingerTemplate {
  const flavour: Flavour = 'ANSI INCITS 378-2004';
  checkMagic(bytes, flavour);
  const head = new RecordReader(bytes, flavour);
  head.skip(8, 'identifier');
  let length = head.u16('record length');
  let headerEnd = 10;
  if (length === 0) {
    length = head.u32('extended record length');
    headerEnd = 14;
  }
  checkLength(length, bytes.length, headerEnd + 16, flavour);
  const r = new RecordReader(bytes, flavour, length);
  r.offset = headerEnd;
  const cbeffProductId = r.u32('CBEFF product identifier');
  const captureEquipment = r.u16('capture equipment');
  const width = r.u16('image width');
  const height = r.u16('image height');
  const xResolutionPpcm = r.u16('x resolution');
  const yResolutionPpcm = r.u16('y resolution');
  const viewCount = r.u8('number of finger views');
  r.u8('reserved byte');
  const views = readViews(r, viewCount, flavour);
  if (r.offset !== length) invalidTemplate(`${flavour}: ${length - r.offset} unexplained bytes after the last view`);
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
  w.bytes(new Uint8Array([0x46, 0x4d, 0x52, 0, 0x20, 0x32, 0x30, 0]));
  if (bodyBytes.length + 10 <= 0xffff) w.u16(bodyBytes.length + 10);
  else w.u16(0).u32(bodyBytes.length + 14);
  w.bytes(bodyBytes);
  return w.toBytes();
}
