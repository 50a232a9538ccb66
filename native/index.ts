/** Fingerprint readers: the interface, USB drivers and readers, the virtual reader, the hot-plug manager and the headless bridge. */
export * from './reader.js';
export { VirtualReader, virtualReaderProvider, listImageFiles, type VirtualReaderOptions } from './virtual-reader.js';
export { ReaderManager, type ReaderManagerOptions } from './reader-manager.js';
export { startReaderBridge, type ReaderBridge } from './http-bridge.js';
export { UsbFingerprintReader, UDEV_HINT, toReaderError } from './usb-reader.js';
export { usbReaderProvider, replayReaderProvider, replayReader, loadUsbModule, usbReaderId, type UsbModuleLike } from './usb-provider.js';
export { DRIVERS, findDriver, usbIdString, type DriverDefinition, type GrayImage } from './drivers/index.js';
export { replayRecording, encodePng, decodeGray, comparePixels, UnsupportedDeviceError } from './replay.js';
