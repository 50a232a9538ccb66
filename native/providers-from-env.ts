/**
 * The reader providers a kiosk or headless bridge starts with, from its environment:
 * - USB readers on the bus (libusb through the `usb` package), unless BIOSTATION_USB_READERS=0;
 *   where libusb cannot load, the reason is logged and the others still start;
 * - BIOSTATION_REPLAY_READERS: recording folders (path-list separated, e.g. `a:b` on Linux), each
 *   shown as a replay reader (demos, support replaying a field report);
 * - BIOSTATION_VIRTUAL_READER_DIR: file-backed virtual readers (see virtual-reader.ts).
 */
import path from 'node:path';
import type { ReaderProvider } from './reader.js';
import { loadUsbModule, replayReaderProvider, usbReaderProvider, type UsbModuleLike } from './usb-provider.js';
import { virtualReaderProvider } from './virtual-reader.js';

export async function readerProvidersFromEnv(
  env: NodeJS.ProcessEnv,
  options: { log?: (message: string) => void; loadUsb?: () => Promise<UsbModuleLike> } = {},
): Promise<ReaderProvider[]> {
  const providers: ReaderProvider[] = [];
  if (env.BIOSTATION_USB_READERS !== '0') {
    try {
      providers.push(usbReaderProvider({ usb: await (options.loadUsb ?? loadUsbModule)() }));
    } catch (e) {
      options.log?.(`USB readers unavailable (libusb did not load: ${(e as Error).message}); set BIOSTATION_USB_READERS=0 to silence`);
    }
  }
  if (env.BIOSTATION_REPLAY_READERS) providers.push(replayReaderProvider(env.BIOSTATION_REPLAY_READERS.split(path.delimiter).filter(Boolean)));
  if (env.BIOSTATION_VIRTUAL_READER_DIR) providers.push(virtualReaderProvider(env.BIOSTATION_VIRTUAL_READER_DIR));
  return providers;
}
