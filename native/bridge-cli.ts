/**
 * Headless reader bridge: `node --import tsx native/bridge-cli.ts [--dir <folder>] [--replay <recording-dir>]... [--no-usb] [--port 8766]`.
 * Serves the USB readers on the bus (unless --no-usb), replayed recordings (--replay, repeatable)
 * and the virtual readers found in <folder> (see virtualReaderProvider) over loopback HTTP, with the
 * reader events on a WebSocket (`/ws`) and as Server-Sent Events (`/events`), and prints `READER_BRIDGE_URL=<url>` once listening. Stops on SIGINT/SIGTERM.
 * The environment works too (native/providers-from-env.ts).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ReaderManager } from './reader-manager.js';
import { startReaderBridge } from './http-bridge.js';
import { readerProvidersFromEnv } from './providers-from-env.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string' },
    replay: { type: 'string', multiple: true },
    'no-usb': { type: 'boolean', default: false },
    port: { type: 'string', default: '8766' },
    host: { type: 'string', default: '127.0.0.1' },
  },
});
const env = { ...process.env };
if (values.dir) env.BIOSTATION_VIRTUAL_READER_DIR = values.dir;
if (values.replay?.length) env.BIOSTATION_REPLAY_READERS = [env.BIOSTATION_REPLAY_READERS, ...values.replay].filter(Boolean).join(path.delimiter);
if (values['no-usb']) env.BIOSTATION_USB_READERS = '0';
const manager = new ReaderManager({ providers: await readerProvidersFromEnv(env, { log: (m) => console.error(`[readers] ${m}`) }) });
await manager.start();
const bridge = await startReaderBridge(manager, { host: values.host, port: Number(values.port) });
console.log(`READER_BRIDGE_URL=${bridge.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => void Promise.all([bridge.close(), manager.close()]).then(() => process.exit(0)));
}
