/**
 * Headless reader bridge: `node --import tsx native/bridge-cli.ts --dir <folder> [--port 8766]`.
 * Serves the virtual readers found in <folder> (see virtualReaderProvider) over loopback HTTP and
 * prints `READER_BRIDGE_URL=<url>` once listening. Stops on SIGINT/SIGTERM.
 */
import { parseArgs } from 'node:util';
import { ReaderManager } from './reader-manager.js';
import { startReaderBridge } from './http-bridge.js';
import { virtualReaderProvider } from './virtual-reader.js';

const { values } = parseArgs({
  options: { dir: { type: 'string' }, port: { type: 'string', default: '8766' }, host: { type: 'string', default: '127.0.0.1' } },
});
const dir = values.dir ?? process.env.BIOSTATION_VIRTUAL_READER_DIR;
if (!dir) {
  console.error('usage: bridge-cli --dir <folder of fingerprint images> [--port 8766]');
  process.exit(2);
}
const manager = new ReaderManager({ providers: [virtualReaderProvider(dir)] });
await manager.start();
const bridge = await startReaderBridge(manager, { host: values.host, port: Number(values.port) });
console.log(`READER_BRIDGE_URL=${bridge.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void Promise.all([bridge.close(), manager.close()]).then(() => process.exit(0)));
}
