/**
 * `biostation readers ...`: the operator's and support's view of USB fingerprint readers.
 *   readers list                         supported readers present, their driver and permission state
 *   readers replay <dir> --out <png>     run the matching driver over a recorded session (umockdev
 *                                        ioctl or usbmon pcapng, see native/README.md) and write the image
 *   readers compare <dir>...             per recording: the replayed image against the folder's
 *                                        capture.png (equal pixels, mean absolute difference), the
 *                                        fingerprint engine's score between the two (or its refusal),
 *                                        and a diagnostic score with the extraction gates open
 * Every command accepts --json and then prints one JSON object. Exit status 1 on failure, with the
 * error's code (native/reader.ts, native/usb/transport.ts) in the message.
 * The native modules (libusb, sharp) and the engine load only when a command runs.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';

function out(json: boolean | undefined, value: unknown, text: string): void {
  console.log(json ? JSON.stringify(value) : text);
}

function fail(json: boolean | undefined, e: unknown): never {
  const err = e as { code?: string; name?: string; message?: string };
  const code = err.code ?? err.name ?? 'ERROR';
  if (json) console.log(JSON.stringify({ error: code, message: err.message ?? String(e) }));
  else console.error(`error ${code}: ${err.message ?? String(e)}`);
  process.exit(1);
}

/** Permission state of one device: opening it is the only sure test (libusb needs rw on the node). */
async function permissionOf(device: { open(): void; close(): void }): Promise<'ok' | 'denied' | 'busy' | string> {
  const { fromLibusbError } = await import('../../native/usb/transport.js');
  try {
    device.open();
    device.close();
    return 'ok';
  } catch (e) {
    const err = fromLibusbError(e, 'open');
    return err.code === 'ACCESS' ? 'denied' : err.code === 'BUSY' ? 'busy' : `error: ${err.message}`;
  }
}

/** Replays every recording and compares it with its capture.png; returns one row per folder. */
export async function compareRecordings(dirs: string[]) {
  const { replayRecording, encodePng, decodeGray, compareWithReference } = await import('../../native/replay.js');
  const { createFingerEngine } = await import('../finger/index.js');
  const { ridgePeriodPx, dpiFromRidgePeriod } = await import('../../native/ridge-period.js');
  const engine = await createFingerEngine();
  // Diagnostic only (never the station's path): the same engine with its extraction gates open (no
  // quality, foreground-area, coherence, ridgeness or minutia-count refusal), to score images the station refuses.
  const diagnosticEngine = await createFingerEngine({ minImageQuality: 0, extractionGates: { minForegroundAreaPx: 0, minMeanCoherence: 0, minRidgeness: 0, minMinutiae: 0 } });
  const rows = [];
  for (const dir of dirs) {
    const name = path.basename(path.resolve(dir));
    try {
      const result = await replayRecording(dir);
      const referenceBytes = await readFile(path.join(dir, 'capture.png'));
      const reference = await decodeGray(referenceBytes);
      const diff = await compareWithReference(result.image, reference);
      const period = ridgePeriodPx(result.image);
      const referencePeriod = ridgePeriodPx(reference);
      // The reference is read at the driver's dpi when it has the replayed image's geometry; otherwise
      // (another assembly) at the dpi its own ridge period implies.
      const referenceDpi = diff.resized ? Math.round(dpiFromRidgePeriod(referencePeriod)) : result.image.dpi;
      const replayedPng = await encodePng(result.image);
      // The engine's view of each image, as the station would see it; a refusal is reported with its
      // reason (code, message, measured details), not hidden.
      type Extracted = Awaited<ReturnType<typeof engine.extract>>;
      const tryExtract = async (e: typeof engine, bytes: Uint8Array, dpi: number): Promise<Extracted | string> => {
        try {
          return await e.extract(bytes, { dpi });
        } catch (err) {
          const fe = err as { code?: string; message?: string; details?: unknown };
          return `${fe.code ?? 'ERROR'}: ${fe.message}${fe.details ? ` ${JSON.stringify(fe.details)}` : ''}`;
        }
      };
      const replayedX = await tryExtract(engine, replayedPng, result.image.dpi);
      const referenceX = await tryExtract(engine, referenceBytes, referenceDpi);
      let engineResult: { minutiae: number; quality: number; score: number } | { engineError: string };
      if (typeof replayedX !== 'string' && typeof referenceX !== 'string') {
        engineResult = { minutiae: replayedX.minutiaCount, quality: replayedX.quality, score: engine.similarity(replayedX.template, referenceX.template) };
      } else {
        const parts = [typeof replayedX === 'string' ? `replayed: ${replayedX}` : `replayed: ${replayedX.minutiaCount} minutiae, quality ${replayedX.quality}`,
          typeof referenceX === 'string' ? `capture.png: ${referenceX}` : `capture.png: ${referenceX.minutiaCount} minutiae, quality ${referenceX.quality}`];
        engineResult = { engineError: parts.join('; ') };
      }
      // Diagnostic, gates open: every row gets a score, also where the station's engine refuses an image.
      const a = await tryExtract(diagnosticEngine, replayedPng, result.image.dpi);
      const b = await tryExtract(diagnosticEngine, referenceBytes, referenceDpi);
      const diagnostic =
        typeof a !== 'string' && typeof b !== 'string'
          ? { diagnosticScore: diagnosticEngine.similarity(a.template, b.template), diagnosticMinutiae: `${a.minutiaCount}/${b.minutiaCount}` }
          : { diagnosticError: [typeof a === 'string' ? `replayed: ${a}` : '', typeof b === 'string' ? `capture.png: ${b}` : ''].filter(Boolean).join('; ') };
      rows.push({
        recording: name,
        driver: result.driver.id,
        widthPx: result.image.widthPx,
        heightPx: result.image.heightPx,
        referenceSize: `${reference.widthPx}x${reference.heightPx}`,
        dpi: result.image.dpi,
        referenceDpi,
        /** Ridge periods (px) and the dpi they imply (native/ridge-period.ts). */
        ridgePeriodPx: period,
        dpiFromRidges: Math.round(dpiFromRidgePeriod(period)),
        referenceRidgePeriodPx: referencePeriod,
        referenceDpiFromRidges: Math.round(dpiFromRidgePeriod(referencePeriod)),
        urbsAnswered: `${result.coverage.used}/${result.coverage.total}`,
        equalPixels: diff.equalPixels,
        totalPixels: diff.totalPixels,
        meanAbsDiff: diff.meanAbsDiff,
        /** True when the replayed image was resized to the reference's size before comparing. */
        resized: diff.resized,
        ...engineResult,
        /**
         * Diagnostic, gates open (createFingerEngine with minImageQuality 0 and extractionGates 0): the
         * score of the two images where the station's engine would refuse one; minutiae as replayed/capture.png.
         */
        ...diagnostic,
        threshold: engine.defaultThreshold,
      });
    } catch (e) {
      const err = e as { code?: string; name?: string; message?: string };
      rows.push({ recording: name, error: `${err.code ?? err.name}: ${err.message}` });
    }
  }
  return rows;
}

export function registerReaderCommands(program: Command): void {
  const readers = program.command('readers').description('USB fingerprint readers: list, replay a recorded session, compare replays');

  readers
    .command('list')
    .description('supported readers present on the USB bus, their driver and whether this user may open them')
    .option('--json', 'print one JSON object')
    .action(async (opts: { json?: boolean }) => {
      try {
        const { loadUsbModule, usbReaderId } = await import('../../native/usb-provider.js');
        const { findDriver, usbIdString } = await import('../../native/drivers/index.js');
        const usb = await loadUsbModule();
        const found = [];
        for (const device of usb.getDeviceList()) {
          const { idVendor, idProduct } = device.deviceDescriptor;
          const driver = findDriver(idVendor, idProduct);
          if (!driver) continue;
          found.push({ id: usbReaderId(device), usbId: usbIdString(idVendor, idProduct), driver: driver.id, name: driver.name, dpi: driver.dpi, permission: await permissionOf(device) });
        }
        const hint = found.some((r) => r.permission === 'denied') ? (await import('../../native/usb-reader.js')).UDEV_HINT : undefined;
        const text = found.length
          ? found.map((r) => `${r.id}  ${r.driver}  ${r.name}  ${r.dpi} dpi  permission: ${r.permission}`).join('\n') + (hint ? `\n(permission denied: ${hint})` : '')
          : 'no supported reader present';
        out(opts.json, { readers: found, ...(hint ? { hint } : {}) }, text);
      } catch (e) {
        fail(opts.json, e);
      }
    });

  readers
    .command('replay <recording-dir>')
    .description('run the matching driver over a recorded USB session (device + capture.ioctl or capture.pcapng) and write the image')
    .requiredOption('--out <file.png>', 'where to write the image (8-bit grey PNG carrying its dpi)')
    .option('--json', 'print one JSON object')
    .action(async (dir: string, opts: { out: string; json?: boolean }) => {
      try {
        const { replayRecording, encodePng } = await import('../../native/replay.js');
        const result = await replayRecording(dir);
        await writeFile(opts.out, await encodePng(result.image));
        const summary = {
          driver: result.driver.id,
          device: result.recording.device.name,
          recording: result.recording.file,
          widthPx: result.image.widthPx,
          heightPx: result.image.heightPx,
          dpi: result.image.dpi,
          urbsAnswered: result.coverage.used,
          urbsRecorded: result.coverage.total,
          out: opts.out,
        };
        out(opts.json, summary, `${summary.driver} (${summary.device}): ${summary.widthPx}x${summary.heightPx} at ${summary.dpi} dpi -> ${opts.out} (${summary.urbsAnswered}/${summary.urbsRecorded} recorded URBs answered)`);
      } catch (e) {
        fail(opts.json, e);
      }
    });

  readers
    .command('compare <recording-dir...>')
    .description("replay each recording and compare with its capture.png: pixel difference and the fingerprint engine's score")
    .option('--json', 'print one JSON object')
    .action(async (dirs: string[], opts: { json?: boolean }) => {
      try {
        const rows = await compareRecordings(dirs);
        const header =
          '| recording | driver | size (capture.png) | dpi (capture.png) | dpi from ridges (capture.png) | equal pixels | mean abs diff | minutiae | station: score (threshold) | diagnostic, gates open: score (minutiae) |\n|---|---|---|---|---|---|---|---|---|---|';
        const lines = rows.map((r) =>
          'error' in r
            ? `| ${r.recording} | error: ${r.error} | | | | | | | | |`
            : `| ${r.recording} | ${r.driver} | ${r.widthPx}x${r.heightPx} (${r.referenceSize}) | ${r.dpi} (${r.referenceDpi}) | ${r.dpiFromRidges} (${r.referenceDpiFromRidges}) | ` +
              `${r.equalPixels}/${r.totalPixels} | ${r.meanAbsDiff.toFixed(3)}${r.resized ? ' (resized)' : ''} | ` +
              ('engineError' in r ? `- | refused: ${r.engineError} | ` : `${r.minutiae} | ${r.score.toFixed(1)} (${r.threshold}) | `) +
              (r.diagnosticScore !== undefined ? `${r.diagnosticScore.toFixed(1)} (${r.diagnosticMinutiae}) |` : `error: ${r.diagnosticError} |`),
        );
        out(opts.json, { rows }, [header, ...lines].join('\n'));
        if (rows.some((r) => 'error' in r)) process.exitCode = 1;
      } catch (e) {
        fail(opts.json, e);
      }
    });
}
