/**
 * UPEK TouchChip fingerprint coprocessor (147e:2016 bcdDevice 2, 147e:2020 bcdDevice 1), swipe
 * sensor; the coprocessor assembles the swipe itself and sends a 144x384 8-bit grey image in frames.
 * Protocol: ../shared/datasets/usb-captures/PROTOCOLS.md §2.2 (verified) and the recording
 * usb-captures/upektc_img/capture.pcapng: the command templates are the host's frames observed there
 * (extracted by native/tools/extract-commands.ts into observed/upektc_img-out.ts; the sequence nibble
 * and CRC are recomputed per frame, and the replay checks every sent frame against the recorded one
 * byte for byte). Frames: `Ciao`, type, `seq<<4 | len>>8`, `len & FF`,
 * payload (byte 7 = inner command), CRC-16/XMODEM over bytes 4..end-2, little-endian.
 * Every reply's CRC is checked, so a corrupted reply fails with DriverProtocolError.
 * Resolution: 508 dpi, UPEK's published TouchStrip resolution (not derivable from the recording).
 */
import type { UsbTransport } from '../usb/transport.js';
import { CaptureRetryError, DriverProtocolError, type CaptureContext, type DriverDefinition, type FingerprintDriver, type GrayImage } from './driver.js';
import { OUT } from './observed/upektc_img-out.js';

const EP_OUT = 0x02;
const EP_IN = 0x81;
const TIMEOUT_MS = 4000;
const WIDTH = 144;
const HEIGHT = 384;
const SHORT_RESPONSE = 64;
const MAX_RESPONSE = 2052;

// Templates: host frames observed in capture.pcapng (observed/upektc_img-out.ts, keyed by packet);
// the sequence nibble (byte 5, high) and the CRC are recomputed before sending (upekFrame).
const observed = (key: keyof typeof OUT) => new Uint8Array(Buffer.from(OUT[key], 'hex'));
const INIT_1 = observed('P65');
const INIT_2 = observed('P69');
const INIT_3 = observed('P77');
const INIT_4 = observed('P81');
/** Inner 0x28, subcommand 0x0E: start capture (observed; PROTOCOLS.md §2.2). */
const INIT_CAPTURE = observed('P85');
/** Inner 0x28 acknowledgement (finger / no finger replies). */
const ACK_00_28 = observed('P89');
/** Type-9 acknowledgement of a type-8 device event. */
const ACK_08 = observed('P93');
/** Inner 0x30: frame acknowledgement. */
const ACK_FRAME = observed('P103');
const CONTROL_SETUP = { requestType: 0x40, request: 0x0c, value: 0x0100, index: 0x0400 };

/** CRC-16/XMODEM (poly 0x1021, init 0; PROTOCOLS.md §2.2), bitwise. */
export function crc16Xmodem(bytes: Uint8Array): number {
  let crc = 0;
  for (const b of bytes) {
    crc ^= b << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** A command template with `seq` in byte 5's high nibble and its CRC. */
export function upekFrame(template: Uint8Array, seq: number): Uint8Array {
  const cmd = template.slice();
  cmd[5] = (cmd[5]! & 0x0f) | ((seq << 4) & 0xf0);
  const crc = crc16Xmodem(cmd.subarray(4, cmd.length - 2));
  cmd[cmd.length - 2] = crc & 0xff;
  cmd[cmd.length - 1] = crc >> 8;
  return cmd;
}

class UpektcImgDriver implements FingerprintDriver {
  private seq = 0;

  constructor(private readonly usb: UsbTransport) {}

  async open(): Promise<void> {
    await this.usb.open();
    await this.usb.claimInterface(0);
    this.seq = 0;
    const io = { timeoutMs: TIMEOUT_MS };
    await this.usb.controlOut(CONTROL_SETUP, Uint8Array.of(0), io);
    await this.usb.bulkIn(EP_IN, SHORT_RESPONSE, io);
    for (const cmd of [INIT_1, INIT_2]) {
      await this.usb.bulkOut(EP_OUT, upekFrame(cmd, 0), io);
      await this.usb.bulkIn(EP_IN, SHORT_RESPONSE, io); // init reply, content not interpreted
    }
    await this.usb.controlOut(CONTROL_SETUP, Uint8Array.of(0), io);
    await this.usb.bulkIn(EP_IN, SHORT_RESPONSE, io);
    await this.usb.bulkOut(EP_OUT, upekFrame(INIT_3, 0), io);
    await this.usb.bulkIn(EP_IN, SHORT_RESPONSE, io);
    await this.usb.bulkOut(EP_OUT, upekFrame(INIT_4, this.seq++), io);
    await this.usb.bulkIn(EP_IN, SHORT_RESPONSE, io);
  }

  async capture(ctx: CaptureContext = {}): Promise<GrayImage> {
    const io = { timeoutMs: TIMEOUT_MS, signal: ctx.signal };
    // The capture command asks the coprocessor to wait without limit for a finger: reads wait too.
    const readIo = { signal: ctx.signal };
    const send = (template: Uint8Array, seq = this.seq++) => this.usb.bulkOut(EP_OUT, upekFrame(template, seq), io);
    const pixels = new Uint8Array(WIDTH * HEIGHT);
    let filled = 0;
    let fingerReported = false;
    await send(INIT_CAPTURE);
    for (;;) {
      const reply = await this.readReply(readIo);
      if (reply[4] === 0x08) {
        await send(ACK_08, 0); // device event: acknowledged without a sequence number
        continue;
      }
      if (reply[4] !== 0x00) throw new DriverProtocolError('upektc_img', `unhandled reply type 0x${reply[4]!.toString(16)}`);
      const inner = reply[7];
      const len = ((reply[5]! & 0x0f) << 8) | reply[6]!;
      if (inner === 0x28) {
        const status = reply[18];
        if (status === 0x00 && !fingerReported) {
          fingerReported = true;
          ctx.fingerOn?.();
        }
        await send(ACK_00_28);
        if (status === 0x00 || status === 0x0c) continue;
        ctx.fingerOff?.();
        if (status === 0x1e) throw new CaptureRetryError('upektc_img', 'TOO_SHORT', 'swipe too short');
        if (status === 0x1d) throw new CaptureRetryError('upektc_img', 'CENTER_FINGER', 'too much horizontal movement');
        throw new CaptureRetryError('upektc_img', 'GENERAL', `scan failed (status 0x${status?.toString(16)})`);
      }
      if (inner === 0x2c || inner === 0x24 || inner === 0x20) {
        if (inner === 0x2c && !fingerReported) {
          fingerReported = true;
          ctx.fingerOn?.();
        }
        // Pixel payload: from byte 8 (0x2C: 18), len-1 bytes (0x2C: minus 10 more, 0x20: minus 4 more).
        const offset = inner === 0x2c ? 18 : 8;
        const count = len - 1 - (inner === 0x2c ? 10 : 0) - (inner === 0x20 ? 4 : 0);
        if (count < 0 || filled + count > pixels.length) throw new DriverProtocolError('upektc_img', `image frame overflows the ${WIDTH}x${HEIGHT} image`);
        pixels.set(reply.subarray(offset, offset + count), filled);
        filled += count;
        if (inner === 0x20) {
          if (filled !== pixels.length) throw new DriverProtocolError('upektc_img', `image has ${filled} bytes, expected ${pixels.length}`);
          ctx.fingerOff?.();
          return { widthPx: WIDTH, heightPx: HEIGHT, pixels, dpi: upektcImg.dpi };
        }
        await send(ACK_FRAME);
        continue;
      }
      throw new DriverProtocolError('upektc_img', `unknown reply (inner command 0x${inner?.toString(16)})`);
    }
  }

  async close(): Promise<void> {
    await this.usb.close();
  }

  /** Reads one reply (64 bytes, then the rest when longer), skipping empty reads; checks its CRC. */
  private async readReply(io: { signal?: AbortSignal; timeoutMs?: number }): Promise<Uint8Array> {
    let head: Uint8Array;
    do head = await this.usb.bulkIn(EP_IN, SHORT_RESPONSE, io);
    while (head.length === 0);
    if (head.length < 9 || head[0] !== 0x43 || head[1] !== 0x69 || head[2] !== 0x61 || head[3] !== 0x6f) {
      throw new DriverProtocolError('upektc_img', 'reply does not start with "Ciao"');
    }
    const size = (((head[5]! & 0x0f) << 8) | head[6]!) + 9;
    let reply = head;
    if (size > head.length) {
      let rest: Uint8Array;
      do rest = await this.usb.bulkIn(EP_IN, MAX_RESPONSE - SHORT_RESPONSE, io);
      while (rest.length === 0);
      reply = new Uint8Array(head.length + rest.length);
      reply.set(head);
      reply.set(rest, head.length);
    }
    if (reply.length < size) throw new DriverProtocolError('upektc_img', `reply of ${reply.length} bytes, its header says ${size}`);
    const crc = crc16Xmodem(reply.subarray(4, size - 2));
    const stored = reply[size - 2]! | (reply[size - 1]! << 8);
    if (crc !== stored) throw new DriverProtocolError('upektc_img', `reply CRC 0x${stored.toString(16)} != computed 0x${crc.toString(16)}`);
    return reply;
  }
}

export const upektcImg: DriverDefinition = {
  id: 'upektc_img',
  name: 'UPEK TouchChip/TouchStrip coprocessor',
  devices: [
    { vendorId: 0x147e, productId: 0x2016 },
    { vendorId: 0x147e, productId: 0x2020 },
  ],
  sensor: 'swipe',
  widthPx: WIDTH,
  heightPx: HEIGHT,
  dpi: 508,
  create: (usb) => new UpektcImgDriver(usb),
};
