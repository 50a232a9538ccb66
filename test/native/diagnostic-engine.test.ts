import { describe, expect, it } from 'vitest';
import { createFingerEngine } from '../../src/finger/index.js';
import { encodePng, replayRecording } from '../../native/replay.js';
import { captureDir, haveCaptures } from './usb-datasets.js';

/**
 * The engine option behind `readers compare`'s "diagnostic, gates open" column
 * (MinutiaeFingerEngineOptions.extractionGates): without it the engine refuses as the station does;
 * with the gates open it extracts the same image. bench:digest proves the defaults unchanged on FVC.
 */
describe.skipIf(!haveCaptures)('diagnostic engine with the extraction gates open', () => {
  it('the replayed vfs301 print: refused by the default engine (area), extracted with the gates open', async () => {
    const { image } = await replayRecording(captureDir('vfs301'));
    const png = await encodePng(image);
    const station = await createFingerEngine();
    await expect(station.extract(png, { dpi: image.dpi })).rejects.toMatchObject({ code: 'NO_FINGERPRINT', details: { foregroundAreaPx: expect.any(Number) } });
    const open = await createFingerEngine({ minImageQuality: 0, extractionGates: { minForegroundAreaPx: 0, minMeanCoherence: 0, minRidgeness: 0, minMinutiae: 0 } });
    const x = await open.extract(png, { dpi: image.dpi });
    expect(x.minutiaCount).toBeGreaterThanOrEqual(0);
    expect(open.similarity(x.template, x.template)).toBeGreaterThan(0);
    // Only the gate named is lowered: with the area gate alone open the other defaults still apply.
    const areaOnly = await createFingerEngine({ extractionGates: { minForegroundAreaPx: 0 } });
    await expect(areaOnly.extract(png, { dpi: image.dpi })).rejects.toMatchObject({ code: expect.stringMatching(/NO_FINGERPRINT|FINGERPRINT_QUALITY_TOO_LOW/) });
  });
});
