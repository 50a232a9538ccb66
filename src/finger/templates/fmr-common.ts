/**
 * What the three finger minutiae record formats share (ISO/IEC 19794-2:2005 and :2011, ANSI INCITS
 * 378-2004): the "FMR\0" identifier and version check, the declared-length check, and the minutia
 * field (x and type in 2 bytes, y in 2, angle in 1, quality in 1 unless a 2011 record says 5-byte
 * minutiae); and the view block that ISO 2005 and ANSI 378 share (they differ in header and angle unit).
 */
import type { FingerView, Minutia } from './model.js';
import { fromAnsiAngle, fromIsoAngle, invalidTemplate, type RecordReader, type RecordWriter, toAnsiAngle, toIsoAngle, TYPE_CODES, typeFromCode } from './byte-io.js';

export type FmrFlavour = 'ISO 19794-2:2005' | 'ANSI INCITS 378-2004' | 'ISO 19794-2:2011';

/** "FMR\0" */
export const FMR_IDENTIFIER = [0x46, 0x4d, 0x52, 0] as const;

/** Checks "FMR\0" and the 4-byte version (" 20\0" for 2005 and ANSI 378, "030\0" for 2011). */
export function checkIdentifier(bytes: Uint8Array, flavour: FmrFlavour, version: ' 20' | '030'): void {
  if (bytes.length < 8) invalidTemplate(`${flavour}: record shorter than its 8-byte identifier`);
  if (bytes[0] !== 0x46 || bytes[1] !== 0x4d || bytes[2] !== 0x52 || bytes[3] !== 0) invalidTemplate(`${flavour}: wrong format identifier (expected "FMR\\0")`);
  const v = [...version].map((c) => c.charCodeAt(0));
  if (bytes[4] !== v[0] || bytes[5] !== v[1] || bytes[6] !== v[2] || bytes[7] !== 0) invalidTemplate(`${flavour}: wrong version (expected "${version}\\0")`);
}

/** The identifier bytes of a record of this version. */
export function identifierBytes(version: ' 20' | '030'): Uint8Array {
  return new Uint8Array([...FMR_IDENTIFIER, ...[...version].map((c) => c.charCodeAt(0)), 0]);
}

/** The declared record length must cover the header and fit in the bytes given. */
export function checkLength(declared: number, available: number, minimum: number, flavour: FmrFlavour): void {
  if (declared < minimum) invalidTemplate(`${flavour}: record length ${declared} is shorter than the header`);
  if (declared > available) invalidTemplate(`${flavour}: record truncated: header declares ${declared} bytes, ${available} present`);
}

/** One minutia field; `angle` is the raw byte (the caller knows its unit). */
export function readMinutiaField(r: RecordReader, m: number, withQuality: boolean): { x: number; y: number; type: Minutia['type']; angle: number; quality: number } {
  const tx = r.u16(`minutia ${m}`);
  const ry = r.u16(`minutia ${m}`);
  const angle = r.u8(`minutia ${m}`);
  const quality = withQuality ? r.u8(`minutia ${m}`) : 0;
  return { x: tx & 0x3fff, y: ry & 0x3fff, type: typeFromCode(tx >> 14), angle, quality };
}

/** Writes one minutia field: coordinates rounded and clamped to 14 bits, `angleByte` already in the format's unit. */
export function writeMinutiaField(w: RecordWriter, m: Minutia, angleByte: number, withQuality: boolean): void {
  const x = Math.min(0x3fff, Math.max(0, Math.round(m.x)));
  const y = Math.min(0x3fff, Math.max(0, Math.round(m.y)));
  w.u16((TYPE_CODES[m.type] << 14) | x).u16(y).u8(angleByte);
  if (withQuality) w.u8(m.quality);
}

/** The views of an ISO 2005 or ANSI 378 record (6-byte minutiae; ANSI angles in 2-degree units, at most 179). */
export function readViews(r: RecordReader, count: number, flavour: 'ISO 19794-2:2005' | 'ANSI INCITS 378-2004'): FingerView[] {
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
      const { x, y, type, angle, quality } = readMinutiaField(r, m, true);
      if (flavour === 'ANSI INCITS 378-2004' && angle > 179) invalidTemplate(`${flavour}: minutia ${m} of view ${v} has angle ${angle} > 179`);
      minutiae.push({ x, y, type, direction: flavour === 'ANSI INCITS 378-2004' ? fromAnsiAngle(angle) : fromIsoAngle(angle), quality });
    }
    const extendedLength = r.u16(`extended data length of view ${v}`);
    const extendedData = r.take(extendedLength, `extended data of view ${v}`);
    views.push({ fingerPosition, viewNumber: viewByte >> 4, impressionType: viewByte & 15, fingerQuality, minutiae, extendedData });
  }
  return views;
}

export function writeViews(w: RecordWriter, views: FingerView[], flavour: 'ISO 19794-2:2005' | 'ANSI INCITS 378-2004'): void {
  for (const view of views) {
    if (view.minutiae.length > 255) invalidTemplate(`${flavour}: a view holds at most 255 minutiae`);
    w.u8(view.fingerPosition).u8(((view.viewNumber & 15) << 4) | (view.impressionType & 15)).u8(view.fingerQuality).u8(view.minutiae.length);
    for (const m of view.minutiae) writeMinutiaField(w, m, flavour === 'ANSI INCITS 378-2004' ? toAnsiAngle(m.direction) : toIsoAngle(m.direction), true);
    w.u16(view.extendedData.length).bytes(view.extendedData);
  }
}
