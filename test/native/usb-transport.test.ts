import { describe, expect, it } from 'vitest';
import { fromLibusbError, UsbDeviceTransport, type UsbDeviceLike } from '../../native/usb/transport.js';

/** A fake `usb.Device` recording what the transport asks of libusb. */
function fakeDevice(options: { openError?: number; kernelDriver?: boolean } = {}) {
  const calls: string[] = [];
  const pending: Array<(error: (Error & { errno?: number }) | undefined, buffer: Buffer, actual: number) => void> = [];
  const endpoint = (address: number) => ({
    address,
    makeTransfer(timeout: number, cb: (error: (Error & { errno?: number }) | undefined, buffer: Buffer, actual: number) => void) {
      return {
        submit(buffer: Buffer) {
          calls.push(`submit 0x${address.toString(16)} ${buffer.length} timeout=${timeout}`);
          if (address & 0x80) pending.push(cb);
          else cb(undefined, buffer, buffer.length);
        },
        cancel() {
          calls.push(`cancel 0x${address.toString(16)}`);
          const err = Object.assign(new Error('LIBUSB_TRANSFER_CANCELLED'), { errno: 3 });
          pending.shift()?.(err, Buffer.alloc(0), 0);
          return true;
        },
      };
    },
  });
  let kernel = options.kernelDriver ?? false;
  const iface = {
    endpoints: [endpoint(0x02), endpoint(0x83)],
    isKernelDriverActive: () => kernel,
    detachKernelDriver: () => void ((kernel = false), calls.push('detach kernel driver')),
    claim: () => void calls.push('claim'),
    release: (_close: boolean, cb: (e?: Error) => void) => (calls.push('release'), cb()),
  };
  const device: UsbDeviceLike = {
    deviceDescriptor: { idVendor: 0x298d, idProduct: 0x1010 },
    busNumber: 1,
    deviceAddress: 3,
    timeout: 0,
    open() {
      if (options.openError !== undefined) throw Object.assign(new Error('LIBUSB_ERROR_ACCESS'), { errno: options.openError });
      calls.push('open');
    },
    close: () => void calls.push('close'),
    interface: () => iface,
    controlTransfer(rt, req, value, index, dataOrLength, cb) {
      calls.push(`control ${rt.toString(16)} ${req} ${value} ${index} ${typeof dataOrLength === 'number' ? `len=${dataOrLength}` : `data=${dataOrLength.toString('hex')}`} timeout=${device.timeout}`);
      cb(undefined, typeof dataOrLength === 'number' ? Buffer.from([1, 2]) : dataOrLength.length);
    },
    reset: (cb) => cb(),
  };
  return { device, calls, complete: (data: Buffer) => pending.shift()!(undefined, Buffer.concat([data, Buffer.alloc(16)]), data.length) };
}

describe('libusb transport (usb package) with a fake device', () => {
  it('opens, detaches a kernel driver, claims, transfers with per-transfer timeouts, releases and closes', async () => {
    const { device, calls, complete } = fakeDevice({ kernelDriver: true });
    const t = new UsbDeviceTransport(device);
    await t.open();
    await t.claimInterface(0);
    await t.bulkOut(0x02, Uint8Array.of(0x80, 0x38), { timeoutMs: 500 });
    const reading = t.bulkIn(0x83, 16, { timeoutMs: 250 });
    complete(Buffer.from('abcd'));
    expect(Buffer.from(await reading).toString()).toBe('abcd'); // the actual length, not the buffer
    await t.controlOut({ requestType: 0x40, request: 0x0c, value: 0x100, index: 0x400 }, Uint8Array.of(0), { timeoutMs: 4000 });
    expect(Array.from(await t.controlIn({ requestType: 0x40, request: 1, value: 0, index: 0 }, 2))).toEqual([1, 2]);
    await t.close();
    expect(calls).toEqual([
      'open', 'detach kernel driver', 'claim', 'submit 0x2 2 timeout=500', 'submit 0x83 16 timeout=250',
      'control 40 12 256 1024 data=00 timeout=4000', 'control c0 1 0 0 len=2 timeout=0', 'release', 'close',
    ]);
  });

  it('an abort cancels the pending transfer (CANCELLED); libusb errors map to stable codes', async () => {
    const { device } = fakeDevice();
    const t = new UsbDeviceTransport(device);
    await t.open();
    await t.claimInterface(0);
    const ac = new AbortController();
    const reading = t.bulkIn(0x83, 8, { signal: ac.signal });
    ac.abort();
    await expect(reading).rejects.toMatchObject({ code: 'CANCELLED' });
    await expect(t.bulkIn(0x85, 8)).rejects.toThrow(/not on a claimed interface/);
    await expect(new UsbDeviceTransport(fakeDevice({ openError: -3 }).device).open()).rejects.toMatchObject({ code: 'ACCESS' });
    expect(fromLibusbError(Object.assign(new Error('x'), { errno: -4 }), 'open').code).toBe('NO_DEVICE');
    expect(fromLibusbError(Object.assign(new Error('x'), { errno: 5 }), 'transfer').code).toBe('NO_DEVICE');
    expect(fromLibusbError(Object.assign(new Error('x'), { errno: -7 }), 'transfer').code).toBe('TIMEOUT');
    expect(fromLibusbError(new Error('odd'), 'transfer').code).toBe('IO');
  });
});
