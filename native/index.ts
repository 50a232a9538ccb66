/** Fingerprint readers: the interface, the virtual reader, the hot-plug manager and the headless bridge. */
export * from './reader.js';
export { VirtualReader, virtualReaderProvider, listImageFiles, type VirtualReaderOptions } from './virtual-reader.js';
export { ReaderManager, type ReaderManagerOptions } from './reader-manager.js';
export { startReaderBridge, type ReaderBridge } from './http-bridge.js';
