import type { FingerTemplate, FingerView, Minutia } from './model.js';
import { fromIsoAngle, invalidTemplate, RecordReader, RecordWriter, toIsoAngle } from './byte-io.js';
import { checkIdentifier, checkLength, identifierBytes, readMinutiaField, writeMinutiaField, type FmrFlavour } from './fmr-common.js';

const FLAVOUR: FmrFlavour = 'ISO 19794-2:2011';

/**
 * Parses an ISO/IEC 19794-2:2011 finger minutiae record: 15-byte general header ("FMR\0", "030\0",
 * length, representation count, certification flag), then per representation: length, capture
 * date/time, device ids, quality blocks, certification blocks (if flagged), position, number,
 * resolution, impression type, size, minutia field length (5 or 6) and minutiae, extended data.
 * Throws FingerError INVALID_TEMPLATE with the exact field for truncated or inconsistent records.
 */
export function parseIso2011(bytes: Uint8Array): FingerTemplate {
  checkIdentifier(bytes, FLAVOUR, '030');
  const head = new RecordReader(bytes, FLAVOUR);
  head.skip(8, 'identifier');
  const length = head.u32('record length');
  checkLength(length, bytes.length, 15, FLAVOUR);
  const r = new RecordReader(bytes, FLAVOUR, length);
  r.offset = 12;
  const count = r.u16('number of finger representations');
  const certificationFlag = r.u8('certification flag');
  const views: FingerView[] = [];
  for (let v = 0; v < count; v++) {
    const start = r.offset;
    const representationLength = r.u32(`length of representation ${v}`);
    if (start + representationLength > length) {
      invalidTemplate(`${FLAVOUR}: representation ${v} declares ${representationLength} bytes, ${length - start} remain in the record`);
    }
    const rr = new RecordReader(bytes, FLAVOUR, start + representationLength);
    rr.offset = r.offset;
    const captureDateTime = rr.take(9, `capture date/time of representation ${v}`);
    const deviceTechnology = rr.u8('capture device technology');
    const deviceVendor = rr.u16('capture device vendor');
    const deviceType = rr.u16('capture device type');
    const qualityCount = rr.u8('number of quality blocks');
    const qualityBlocks = rr.take(qualityCount * 5, 'quality blocks');
    let certificationBlocks: Uint8Array = new Uint8Array(0);
    if (certificationFlag) {
      const certCount = rr.u8('number of certification blocks');
      certificationBlocks = rr.take(certCount * 3, 'certification blocks');
    }
    const fingerPosition = rr.u8('finger position');
    const viewNumber = rr.u8('representation number');
    const xResolutionPpcm = rr.u16('x resolution');
    const yResolutionPpcm = rr.u16('y resolution');
    const impressionType = rr.u8('impression type');
    const width = rr.u16('image width');
    const height = rr.u16('image height');
    const fieldByte = rr.u8('minutia field length');
    const minutiaFieldLength = fieldByte >> 4;
    const ridgeEndingType = fieldByte & 15;
    if (minutiaFieldLength !== 5 && minutiaFieldLength !== 6) invalidTemplate(`${FLAVOUR}: minutia field length ${minutiaFieldLength} (must be 5 or 6)`);
    const minutiaCount = rr.u8('number of minutiae');
    if (rr.offset + minutiaCount * minutiaFieldLength > rr.end) {
      invalidTemplate(
        `${FLAVOUR}: representation ${v} declares ${minutiaCount} minutiae (${minutiaCount * minutiaFieldLength} bytes) but only ${rr.end - rr.offset} bytes remain`,
      );
    }
    const minutiae: Minutia[] = [];
    for (let m = 0; m < minutiaCount; m++) {
      const { x, y, type, angle, quality } = readMinutiaField(rr, m, minutiaFieldLength === 6);
      minutiae.push({ x, y, type, direction: fromIsoAngle(angle), quality });
    }
    const extendedLength = rr.u16('extended data length');
    const extendedData = rr.take(extendedLength, 'extended data');
    if (rr.offset !== rr.end) invalidTemplate(`${FLAVOUR}: ${rr.end - rr.offset} unexplained bytes at the end of representation ${v}`);
    r.offset = rr.end;
    const qualities = [];
    for (let q = 0; q + 5 <= qualityBlocks.length; q += 5) qualities.push(qualityBlocks[q]);
    views.push({
      fingerPosition,
      viewNumber,
      impressionType,
      fingerQuality: qualities.length ? qualities[0] : 0,
      minutiae,
      extendedData,
      iso2011: {
        captureDateTime,
        deviceTechnology,
        deviceVendor,
        deviceType,
        qualityBlocks,
        certificationBlocks,
        minutiaFieldLength,
        ridgeEndingType,
        width,
        height,
        xResolutionPpcm,
        yResolutionPpcm,
      },
    });
  }
  if (r.offset !== length) invalidTemplate(`${FLAVOUR}: ${length - r.offset} unexplained bytes after the last representation`);
  if (views.length === 0) invalidTemplate(`${FLAVOUR}: record holds no finger representation`);
  const first = views[0].iso2011!;
  return {
    width: first.width,
    height: first.height,
    xResolutionPpcm: first.xResolutionPpcm,
    yResolutionPpcm: first.yResolutionPpcm,
    views,
    certificationFlag,
  };
}

/**
 * Writes an ISO/IEC 19794-2:2011 record. Fields the source format lacks get neutral values:
 * date/time all 0xFF, device ids 0, one quality block (finger quality, vendor/algorithm 0) when the
 * finger quality is non-zero, 6-byte minutiae (with quality), ridge ending type 1 (valley skeleton
 * bifurcation point), certification flag 1 with no blocks (as SourceAFIS writes it).
 */
export function writeIso2011(t: FingerTemplate): Uint8Array {
  const w = new RecordWriter();
  const certificationFlag = t.certificationFlag ?? 1;
  w.bytes(identifierBytes('030')).u32(0).u16(t.views.length).u8(certificationFlag);
  for (const view of t.views) {
    const x = view.iso2011;
    const start = w.length;
    w.u32(0);
    w.bytes(x?.captureDateTime ?? new Uint8Array(9).fill(0xff));
    w.u8(x?.deviceTechnology ?? 0).u16(x?.deviceVendor ?? 0).u16(x?.deviceType ?? 0);
    const quality = x?.qualityBlocks ?? (view.fingerQuality ? new Uint8Array([view.fingerQuality, 0, 0, 0, 0]) : new Uint8Array(0));
    w.u8(quality.length / 5).bytes(quality);
    if (certificationFlag) {
      const cert = x?.certificationBlocks ?? new Uint8Array(0);
      w.u8(cert.length / 3).bytes(cert);
    }
    const fieldLength = x?.minutiaFieldLength ?? 6;
    w.u8(view.fingerPosition).u8(x ? view.viewNumber : view.viewNumber);
    w.u16(x?.xResolutionPpcm ?? t.xResolutionPpcm).u16(x?.yResolutionPpcm ?? t.yResolutionPpcm).u8(view.impressionType);
    w.u16(x?.width ?? t.width).u16(x?.height ?? t.height);
    w.u8((fieldLength << 4) | (x?.ridgeEndingType ?? 1)).u8(view.minutiae.length);
    for (const m of view.minutiae) writeMinutiaField(w, m, toIsoAngle(m.direction), fieldLength === 6);
    w.u16(view.extendedData.length).bytes(view.extendedData);
    w.patchU32(start, w.length - start);
  }
  w.patchU32(8, w.length);
  return w.toBytes();
}
