import { FingerError } from '../errors.js';

/** Throws INVALID_TEMPLATE with an exact reason. */
export function invalidTemplate(reason: string, details?: Record<string, unknown>): never {
  throw new FingerError('INVALID_TEMPLATE', reason, details);
}

/** Big-endian cursor over a record that reports truncation with the field name and offset. */
export class RecordReader {
  offset = 0;
  constructor(
    readonly bytes: Uint8Array,
    readonly format: string,
    readonly end = bytes.length,
  ) {}

  private need(n: number, field: string): void {
    if (this.offset + n > this.end) {
      invalidTemplate(`${this.format}: record truncated reading ${field} at byte ${this.offset} (needs ${n}, ${this.end - this.offset} left)`, {
        offset: this.offset,
      });
    }
  }
  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.offset++];
  }
  u16(field: string): number {
    this.need(2, field);
    const v = (this.bytes[this.offset] << 8) | this.bytes[this.offset + 1];
    this.offset += 2;
    return v;
  }
  u32(field: string): number {
    this.need(4, field);
    const b = this.bytes;
    const o = this.offset;
    this.offset += 4;
    return ((b[o] << 24) >>> 0) + (b[o + 1] << 16) + (b[o + 2] << 8) + b[o + 3];
  }
  take(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.slice(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  skip(n: number, field: string): void {
    this.need(n, field);
    this.offset += n;
  }
}

/** Growable big-endian writer. */
export class RecordWriter {
  private buffer = new Uint8Array(256);
  length = 0;
  private grow(n: number): void {
    if (this.length + n <= this.buffer.length) return;
    const next = new Uint8Array(Math.max(this.buffer.length * 2, this.length + n));
    next.set(this.buffer.subarray(0, this.length));
    this.buffer = next;
  }
  u8(v: number): this {
    this.grow(1);
    this.buffer[this.length++] = v & 0xff;
    return this;
  }
  u16(v: number): this {
    return this.u8(v >> 8).u8(v);
  }
  u32(v: number): this {
    return this.u8(v >>> 24).u8(v >>> 16).u8(v >>> 8).u8(v);
  }
  bytes(b: Uint8Array): this {
    this.grow(b.length);
    this.buffer.set(b, this.length);
    this.length += b.length;
    return this;
  }
  patchU32(at: number, v: number): void {
    this.buffer[at] = v >>> 24;
    this.buffer[at + 1] = (v >>> 16) & 0xff;
    this.buffer[at + 2] = (v >>> 8) & 0xff;
    this.buffer[at + 3] = v & 0xff;
  }
  patchU16(at: number, v: number): void {
    this.buffer[at] = (v >>> 8) & 0xff;
    this.buffer[at + 1] = v & 0xff;
  }
  toBytes(): Uint8Array {
    return this.buffer.slice(0, this.length);
  }
}

export const TYPE_CODES = { other: 0, ending: 1, bifurcation: 2 } as const;
export function typeFromCode(code: number): 'other' | 'ending' | 'bifurcation' {
  return code === 1 ? 'ending' : code === 2 ? 'bifurcation' : 'other';
}

/** ISO angle units (360/256 degrees, counter-clockwise, y up) -> internal radians (image coords, y down). */
export function fromIsoAngle(units: number): number {
  const a = -(units * 2 * Math.PI) / 256;
  return a < 0 ? a + 2 * Math.PI : a;
}
/** Internal radians -> ISO angle units 0..255. */
export function toIsoAngle(direction: number): number {
  const a = (-direction * 256) / (2 * Math.PI);
  return ((Math.round(a) % 256) + 256) % 256;
}
/** ANSI angle units (2 degrees) -> internal radians. */
export function fromAnsiAngle(units: number): number {
  const a = -(units * 2 * Math.PI) / 180;
  return a < 0 ? a + 2 * Math.PI : a;
}
/** Internal radians -> ANSI angle units 0..179. */
export function toAnsiAngle(direction: number): number {
  const a = (-direction * 180) / (2 * Math.PI);
  return ((Math.round(a) % 180) + 180) % 180;
}
