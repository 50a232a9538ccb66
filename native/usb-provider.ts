/**
 * Reader providers for the manager: USB devices on the bus (hot-plug through the `usb` package's
 * attach/detach events, driver chosen by vendor:product id) and replayed recordings (a recording
 * folder acts as an attached reader: demos, tests, and field bug reports).
 */
import path from 'node:path';
import { findDriver, usbIdString } from './drivers/index.js';
import type { ReaderProvider } from './reader.js';
import { UsbFingerprintReader } from './usb-reader.js';
import { loadRecording, type Recording } from './usb/recording.js';
import { ReplayTransport } from './usb/replay-transport.js';
import { UsbDeviceTransport, type UsbDeviceLike, type UsbTransport } from './usb/transport.js';

/** The part of the `usb` package's `usb` object the provider uses (tests pass a fake). */
export interface UsbModuleLike {
  getDeviceList(): UsbDeviceLike[];
  on(event: 'attach' | 'detach', listener: (device: UsbDeviceLike) => void): unknown;
  removeListener(event: 'attach' | 'detach', listener: (device: UsbDeviceLike) => void): unknown;
}

/** Loads the `usb` package (libusb binding). Rejects where the binding cannot load. */
export async function loadUsbModule(): Promise<UsbModuleLike> {
  const mod = await import('usb');
  mod.usb.unrefHotplugEvents?.();
  return mod.usb as unknown as UsbModuleLike;
}

/** Stable id of a device while it stays on the same port: `usb:298d:1010:1-7` (bus-ports). */
export function usbReaderId(device: UsbDeviceLike): string {
  const { idVendor, idProduct } = device.deviceDescriptor;
  const where = device.portNumbers?.length ? `${device.busNumber}-${device.portNumbers.join('.')}` : `${device.busNumber}-a${device.deviceAddress}`;
  return `usb:${usbIdString(idVendor, idProduct)}:${where}`;
}

/** Supported readers among the USB devices present (by vendor:product id). */
export function usbReaderProvider(options: { usb: UsbModuleLike; transportFor?: (device: UsbDeviceLike) => UsbTransport }): ReaderProvider {
  const transportFor = options.transportFor ?? ((device: UsbDeviceLike) => new UsbDeviceTransport(device));
  return {
    async scan() {
      const found = [];
      for (const device of options.usb.getDeviceList()) {
        const { idVendor, idProduct } = device.deviceDescriptor;
        const driver = findDriver(idVendor, idProduct);
        if (!driver) continue;
        const info = {
          id: usbReaderId(device),
          name: driver.name,
          kind: 'usb' as const,
          dpi: driver.dpi,
          driver: driver.id,
          usbId: usbIdString(idVendor, idProduct),
        };
        found.push({ info, create: () => new UsbFingerprintReader({ info, driver, transport: () => transportFor(device) }) });
      }
      return found;
    },
    watch(onChange) {
      const listener = () => onChange();
      options.usb.on('attach', listener);
      options.usb.on('detach', listener);
      return () => {
        options.usb.removeListener('attach', listener);
        options.usb.removeListener('detach', listener);
      };
    },
  };
}

/** A reader that replays a recording folder; each capture replays the whole recorded session. */
export async function replayReader(dir: string): Promise<UsbFingerprintReader> {
  const recording = await loadRecording(dir);
  const { vendorId, productId } = recording.device;
  const driver = findDriver(vendorId, productId);
  if (!driver) throw new Error(`no driver for ${usbIdString(vendorId, productId)} (${dir})`);
  return new UsbFingerprintReader({
    info: {
      id: `replay:${path.basename(path.resolve(dir))}`,
      name: `${driver.name} (replay of ${path.basename(path.resolve(dir))})`,
      kind: 'replay',
      dpi: driver.dpi,
      driver: driver.id,
      usbId: usbIdString(vendorId, productId),
    },
    driver,
    transport: () => new ReplayTransport(cloneRecording(recording)),
  });
}

/** Replay readers over recording folders (always present). */
export function replayReaderProvider(dirs: string[]): ReaderProvider {
  const loaded = new Map<string, Promise<UsbFingerprintReader>>();
  return {
    async scan() {
      const found = [];
      for (const dir of dirs) {
        if (!loaded.has(dir)) loaded.set(dir, replayReader(dir));
        const reader = await loaded.get(dir)!;
        found.push({ info: reader.info, create: () => reader });
      }
      return found;
    },
  };
}

function cloneRecording(r: Recording): Recording {
  return { ...r, urbs: r.urbs.map((u) => ({ ...u })) };
}
