/**
 * Parsers of recorded USB sessions into one list of URBs, in the order the device saw them:
 * - umockdev `.ioctl` text (USBDEVFS_REAPURB[NDELAY] lines; a tree written in pre-order, so file
 *   order is the replay search order), see ../shared/datasets/usb-captures/PROTOCOLS.md §1.1;
 * - usbmon pcapng (link type 220, 64-byte headers; link type 189, 48-byte headers), §1.3;
 * - the udev `device` description (vendor/product, bus/device numbers, descriptors), §1.2.
 * Sources: umockdev `ioctl_tree.c` (line format), the Linux usbmon documentation (binary header).
 */
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

export type UrbType = 'iso' | 'interrupt' | 'control' | 'bulk';
const URB_TYPES: UrbType[] = ['iso', 'interrupt', 'control', 'bulk'];

/** One recorded transfer (submit + reap). */
export interface RecordedUrb {
  type: UrbType;
  /** Endpoint address with the direction bit (0x83 = IN 3); 0x00/0x80 for control. */
  endpoint: number;
  /** URB flags as recorded (umockdev only; 0 otherwise). */
  flags: number;
  /** Bytes the host asked for (IN) or sent (OUT); for control, wLength. */
  requestedLength: number;
  /** 0 for success, otherwise -errno as recorded (-2 = cancelled, -110 = timed out, -19 = gone). */
  status: number;
  /** OUT: bytes sent; IN: bytes the device returned (actual length). */
  data: Uint8Array;
  /** Control transfers: the 8-byte SETUP packet. */
  setup?: Uint8Array;
  /** Where it came from, for messages: `capture.ioctl:12` or `capture.pcapng#34`. */
  source: string;
}

/** What a `device` file says about the recorded device. */
export interface RecordedDevice {
  vendorId: number;
  productId: number;
  busNumber: number | undefined;
  deviceAddress: number | undefined;
  /** usbfs descriptors (device descriptor then configurations), when present. */
  descriptors: Uint8Array | undefined;
  /** ID_MODEL_FROM_DATABASE, ID_MODEL or the product id. */
  name: string;
}

/** A recording folder: its device and its URBs. */
export interface Recording {
  dir: string;
  device: RecordedDevice;
  urbs: RecordedUrb[];
  /** `capture.ioctl` or `capture.pcapng`. */
  file: string;
}

/** A recording file could not be read or understood. */
export class RecordingFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RecordingFormatError';
  }
}

const isIn = (endpoint: number) => (endpoint & 0x80) !== 0;

/** Parses umockdev ioctl text. Throws RecordingFormatError naming the line. */
export function parseIoctlRecording(text: string, name = 'capture.ioctl'): RecordedUrb[] {
  const urbs: RecordedUrb[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('@') || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    const ioctl = fields[0]!;
    if (ioctl === 'USBDEVFS_GET_CAPABILITIES' || ioctl === 'USBDEVFS_CONNECTINFO') continue;
    const where = `${name}:${i + 1}`;
    if (ioctl !== 'USBDEVFS_REAPURB' && ioctl !== 'USBDEVFS_REAPURBNDELAY') {
      throw new RecordingFormatError(`${where}: unsupported ioctl ${ioctl}`);
    }
    // <IOCTL> <ret> type endpoint status flags buffer_length actual_length error_count [HEX]
    if (fields.length < 9) throw new RecordingFormatError(`${where}: expected 9 or 10 fields, got ${fields.length}`);
    const [type, endpoint, status, flags, bufferLength, actualLength] = fields.slice(2, 8).map(Number) as [number, number, number, number, number, number];
    if (![type, endpoint, status, flags, bufferLength, actualLength].every(Number.isInteger) || !URB_TYPES[type]) {
      throw new RecordingFormatError(`${where}: malformed URB fields`);
    }
    const hex = fields[9] ?? '';
    if (!/^[0-9A-Fa-f]*$/.test(hex) || hex.length % 2 !== 0) throw new RecordingFormatError(`${where}: malformed hex data`);
    const data = new Uint8Array(Buffer.from(hex, 'hex'));
    const expected = isIn(endpoint) ? actualLength : bufferLength;
    if (data.length !== expected) {
      throw new RecordingFormatError(`${where}: ${data.length} data bytes, expected ${expected}`);
    }
    urbs.push({ type: URB_TYPES[type]!, endpoint, flags, requestedLength: bufferLength, status, data, source: where });
  }
  return urbs;
}

/**
 * Parses a usbmon pcapng capture, keeping URBs of `bus`/`device` when given. Pairs each submit
 * (`S`) with its completion (`C`/`E`) by URB id: OUT data comes from the submit, IN data from the
 * completion; records are in submit order. Throws RecordingFormatError.
 */
export function parsePcapngRecording(bytes: Uint8Array, filter: { bus?: number; device?: number } = {}, name = 'capture.pcapng'): RecordedUrb[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let little = true;
  let linkType = -1;
  let packet = 0;
  const pending = new Map<string, RecordedUrb>();
  const urbs: RecordedUrb[] = [];
  let offset = 0;
  while (offset + 12 <= bytes.length) {
    const blockType = view.getUint32(offset, little);
    if (blockType === 0x0a0d0d0a) {
      const magic = view.getUint32(offset + 8, true);
      if (magic === 0x1a2b3c4d) little = true;
      else if (magic === 0x4d3c2b1a) little = false;
      else throw new RecordingFormatError(`${name}: bad byte-order magic at ${offset}`);
    }
    const blockLength = view.getUint32(offset + 4, little);
    if (blockLength < 12 || offset + blockLength > bytes.length) throw new RecordingFormatError(`${name}: truncated block at byte ${offset}`);
    if (blockType === 1) linkType = view.getUint16(offset + 8, little);
    if (blockType === 6) {
      packet++;
      const captured = view.getUint32(offset + 20, little);
      const start = offset + 28;
      if (linkType !== 220 && linkType !== 189) throw new RecordingFormatError(`${name}: link type ${linkType} is not usbmon`);
      const headerBytes = linkType === 220 ? 64 : 48;
      if (captured < headerBytes) throw new RecordingFormatError(`${name}#${packet}: packet shorter than the usbmon header`);
      const h = new DataView(bytes.buffer, bytes.byteOffset + start, captured);
      const id = h.getBigUint64(0, true).toString();
      const event = String.fromCharCode(h.getUint8(8));
      const type = URB_TYPES[h.getUint8(9)];
      const endpoint = h.getUint8(10);
      const device = h.getUint8(11);
      const bus = h.getUint16(12, true);
      const setupFlag = h.getUint8(14);
      const status = h.getInt32(28, true);
      const urbLength = h.getUint32(32, true);
      const capturedData = h.getUint32(36, true);
      const data = bytes.slice(start + headerBytes, start + headerBytes + capturedData);
      const keep = (filter.bus === undefined || filter.bus === bus) && (filter.device === undefined || filter.device === device);
      if (keep && type) {
        const key = `${id}:${endpoint}`;
        if (event === 'S') {
          const urb: RecordedUrb = {
            type,
            endpoint,
            flags: 0,
            requestedLength: urbLength,
            status: 0,
            data: isIn(endpoint) ? new Uint8Array(0) : data,
            source: `${name}#${packet}`,
          };
          if (type === 'control' && setupFlag === 0) {
            urb.setup = bytes.slice(start + 40, start + 48);
            urb.endpoint = urb.setup[0]! & 0x80; // direction of a control transfer is in bmRequestType
            if (isIn(urb.endpoint)) urb.data = new Uint8Array(0);
          }
          pending.set(key, urb);
          urbs.push(urb);
        } else if (event === 'C' || event === 'E') {
          const urb = pending.get(key) ?? pending.get(`${id}:${endpoint & 0x7f}`) ?? pending.get(`${id}:${endpoint | 0x80}`);
          if (urb) {
            pending.delete(key);
            urb.status = status;
            if (isIn(urb.endpoint)) urb.data = data.slice(0, urbLength);
          }
        }
      }
    }
    offset += blockLength;
  }
  if (linkType === -1) throw new RecordingFormatError(`${name}: no interface description block`);
  // Submitted but never completed (capture stopped first): the device never answered them.
  const unfinished = new Set(pending.values());
  return urbs.filter((u) => !unfinished.has(u) || !isIn(u.endpoint));
}

/** Parses a udev `device` description (first block is the device itself). */
export function parseDeviceDescription(text: string): RecordedDevice {
  const block = text.split(/\n\s*\n/)[0] ?? '';
  const props = new Map<string, string>();
  let descriptors: Uint8Array | undefined;
  for (const line of block.split('\n')) {
    const m = /^([A-Z]): (.*)$/.exec(line);
    if (!m) continue;
    const [, kind, rest] = m as unknown as [string, string, string];
    const eq = rest.indexOf('=');
    if (eq < 0) continue;
    const key = rest.slice(0, eq);
    const value = rest.slice(eq + 1).replace(/\\n$/, '');
    if (kind === 'H' && key === 'descriptors') descriptors = new Uint8Array(Buffer.from(value, 'hex'));
    else if (kind === 'E' || kind === 'A') props.set(`${kind}:${key}`, value);
  }
  const hexProp = (k: string) => {
    const v = props.get(k);
    return v === undefined ? undefined : parseInt(v, 16);
  };
  const vendorId = hexProp('E:ID_VENDOR_ID') ?? hexProp('A:idVendor') ?? (descriptors ? descriptors[8]! | (descriptors[9]! << 8) : undefined);
  const productId = hexProp('E:ID_MODEL_ID') ?? hexProp('A:idProduct') ?? (descriptors ? descriptors[10]! | (descriptors[11]! << 8) : undefined);
  if (vendorId === undefined || productId === undefined || Number.isNaN(vendorId) || Number.isNaN(productId)) {
    throw new RecordingFormatError('device: no vendor/product id');
  }
  const num = (k: string) => (props.has(k) ? parseInt(props.get(k)!, 10) : undefined);
  return {
    vendorId,
    productId,
    busNumber: num('E:BUSNUM'),
    deviceAddress: num('E:DEVNUM'),
    descriptors,
    name: props.get('E:ID_MODEL_FROM_DATABASE') ?? props.get('E:ID_MODEL') ?? `${vendorId.toString(16)}:${productId.toString(16)}`,
  };
}

/**
 * Loads a recording folder: `device` plus `capture.ioctl` or `capture.pcapng` (the names
 * the recordings in usb-captures use). Throws RecordingFormatError when either is missing or malformed.
 */
export async function loadRecording(dir: string): Promise<Recording> {
  const names = await readdir(dir).catch(() => {
    throw new RecordingFormatError(`not a folder: ${dir}`);
  });
  if (!names.includes('device')) throw new RecordingFormatError(`${dir}: no 'device' file`);
  const device = parseDeviceDescription(await readFile(path.join(dir, 'device'), 'utf8'));
  if (names.includes('capture.ioctl')) {
    const urbs = parseIoctlRecording(await readFile(path.join(dir, 'capture.ioctl'), 'utf8'));
    return { dir, device, urbs, file: 'capture.ioctl' };
  }
  if (names.includes('capture.pcapng')) {
    const bytes = new Uint8Array(await readFile(path.join(dir, 'capture.pcapng')));
    const urbs = parsePcapngRecording(bytes, { bus: device.busNumber, device: device.deviceAddress });
    return { dir, device, urbs, file: 'capture.pcapng' };
  }
  throw new RecordingFormatError(`${dir}: no capture.ioctl or capture.pcapng`);
}
