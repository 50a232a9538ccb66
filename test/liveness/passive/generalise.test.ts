/**
 * The bench's generalisation rules (bench/liveness/generalise.ts) on constructed measurements: a
 * signal that separates every synthetic attack but calls a real attack live (which the network
 * refuses) is refused by the rule, whatever its left-out APCER; the exposure sweep counts refusals.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/liveness/attacks.js';
import { chooseFusion, exposureGateSweep, publicSampleFiles, replaySource, type Judged } from '../../../bench/liveness/generalise.js';
import { SIGNAL_NAMES, type Signals } from '../../../src/liveness/passive/signals.js';
import { DEFAULT_LIVENESS_TUNING } from '../../../src/liveness/passive/tuning.js';

const rnd = mulberry32(11);
const gauss = (): number => (rnd() + rnd() + rnd() - 1.5) * 2;
/** Noise in every signal; `glare` carries the planted "generator artefact" (high on synthetic attacks). */
function item(id: string, split: string, set: string, bonaFide: boolean, real: number, glare: number): Judged {
  const signals = Object.fromEntries(SIGNAL_NAMES.map((n) => [n, gauss()])) as Signals;
  signals.glare = glare + 0.1 * gauss();
  return { id, split, set, bonaFide, status: 'ok', cnn: { real, spoof2d: 1 - real, spoof3d: 0 }, signals, exposure: { meanLuma: 40 + rnd() * 150, clipped: 0, sharpness: 50 }, faceWidthPx: 120 };
}
/** The network: right on print, unsure on screen and cutout; the glare artefact: on every synthetic attack. */
function part(split: string): Judged[] {
  const out: Judged[] = [];
  for (let i = 0; i < 40; i++) {
    out.push(item(`${split}/${i}/live-camera`, split, 'live-camera', true, 0.6 + 0.39 * rnd(), 0));
    out.push(item(`${split}/${i}/lfw`, split, 'lfw', true, 0.6 + 0.39 * rnd(), 0));
    for (const set of ['print', 'print-closeup']) out.push(item(`${split}/${i}/${set}`, split, set, false, 0.01 * rnd(), 5));
    for (const set of ['screen', 'screen-closeup', 'cutout']) out.push(item(`${split}/${i}/${set}`, split, set, false, 0.2 + 0.79 * rnd(), 5));
  }
  return out;
}

describe('bench generalisation rules', () => {
  it('a generator artefact that calls a real attack live is refused, however well it separates synthetic attacks', () => {
    const tune = part('tune');
    const dev = part('heldout');
    // the real attack lies beyond the bona fide on the artefact's live side (glare -3: a real medium the generator never drew)
    // and the network refuses it (p 0.3, below every bona fide); the real bona fide passes
    const real = [item('spoof-samples/F.jpg', 'heldout', 'spoof-samples', false, 0.3, -3), item('spoof-samples/T.jpg', 'heldout', 'spoof-samples', true, 0.9, 0)];
    const { rows, chosen } = chooseFusion(tune, dev, real);
    const glare = rows.find((r) => r.fusion === 'network + glare')!;
    const alone = rows.find((r) => r.fusion === 'network alone')!;
    // on the synthetic set the artefact wins outright...
    expect(Number.parseFloat(glare.worst)).toBeLessThan(Number.parseFloat(alone.worst));
    // ...but it lets the real attack through, so the rule refuses it, and it is not chosen
    expect(glare['real attacks lost']).toContain('F');
    expect(glare.rule).toBe('refused');
    expect(chosen.label).not.toBe('network + glare');
    expect(chosen.eligible || chosen.label === 'network alone').toBe(true);
  });

  it('the exposure sweep counts the faces each minimum mean luma refuses, per set', () => {
    const ms = part('tune');
    const rows = exposureGateSweep(ms, DEFAULT_LIVENESS_TUNING.gates, (m) => m.cnn!.real, 0.5, [0, 250]);
    expect(String(rows[0]['live-camera']).startsWith('0 / ')).toBe(true);
    expect(String(rows[1]['live-camera']).startsWith('40 / ')).toBe(true);
  });

  it('reads the screen-replay layout of public-replay.sh: one sample per image, labelled by folder, source recoverable from the id', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'replay-'));
    try {
      for (const [src, kind, file] of [['cam-a', 'live', 'real-001.jpg'], ['cam-a', 'attack', 'fake-001.jpg'], ['crop-b', 'attack', '7.png'], ['crop-b', 'attack', 'notes.txt']]) {
        mkdirSync(path.join(dir, 'replay', src, kind), { recursive: true });
        writeFileSync(path.join(dir, 'replay', src, kind, file), '');
      }
      const got = publicSampleFiles(dir);
      expect(got.map((g) => [g.name, g.label, g.set])).toEqual([
        ['replay-cam-a-live/real-001.jpg', 'bona fide', 'replay'],
        ['replay-cam-a-attack/fake-001.jpg', 'attack', 'replay'],
        ['replay-crop-b-attack/7.png', 'attack', 'replay'],
      ]);
      expect(got.map((g) => replaySource(`public/${g.name}`))).toEqual(['cam-a', 'cam-a', 'crop-b']);
      expect(replaySource('public/nuaa-client/x.jpg')).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
