/**
 * Test-time augmentation scan for the passive liveness network (issue #20, idea 1): the network's
 * raw logits on several Silent-Face crops of each judged face (crop scale, box shift, horizontal
 * flip), for the g3 tune + heldout parts, lfw-dev photos (every 4th), the real samples, NUAA and the
 * real screen replays of bench/liveness/public-replay.sh when present
 * (needs `npm run bench:liveness` to have cached the g3 images and boxes first).
 * Writes .cache/liveness-bench/tta-v1.json (about 6 minutes on a loaded 2-core machine); `--eval`
 * reads it and prints each candidate combination's figures: tune and heldout AUC, BPCER
 * live-camera / lfw and APCER per attack type at 0.5 and at the part's live-camera BPCER 3 %; NUAA
 * AUC and BPCER / APCER at 0.5, also by odd / even subject; the screen replays' AUC and BPCER / APCER
 * at 0.5 (all sources, and the full-frame videos alone); the real samples' P(live). `--short`:
 * logit averaging only, fewer rows; `--pad`: the padded-crop rows of tta-pad.mts (when its cache
 * exists) beside the chosen ones. Findings: src/liveness/passive/README.md, "Two views of the face".
 *
 * `--disagree`: the chosen views' disagreement as a would-be quality gate.
 *
 * `npx tsx bench/liveness/tta-scan.ts [--eval [--short] [--pad]] [--disagree]`
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { createFaceEngine } from '../../src/face/index.js';
import { builtModelPath } from '../../src/runtime/onnx-models.js';
import { resizePlanar, silentFaceRect, type FaceBox, type RgbRaster } from '../../src/liveness/passive/crop.js';
import { faceExposure, faceSample } from '../../src/liveness/passive/signals.js';
import { gateFailures } from '../../src/liveness/passive/engine.js';
import { DEFAULT_LIVENESS_TUNING } from '../../src/liveness/passive/tuning.js';
import { publicSampleFiles } from './generalise.js';

export interface Variant {
  scale: number;
  /** Box shift, fraction of the box width / height. */
  dx: number;
  dy: number;
  flip: boolean;
}
export const VARIANTS: Variant[] = [];
for (const scale of [2.2, 2.7, 3.2])
  for (const [dx, dy] of [[0, 0], [-0.08, 0], [0.08, 0], [0, -0.08], [0, 0.08]])
    for (const flip of [false, true]) VARIANTS.push({ scale, dx, dy, flip });
for (const flip of [false, true]) VARIANTS.push({ scale: 4.0, dx: 0, dy: 0, flip });

const CACHE = path.resolve('.cache/liveness-bench/tta-v1.json');
const PUBLIC_DIR = path.resolve(process.env.BIOSTATION_LIVENESS_PUBLIC ?? '.cache/liveness-public');

interface Item {
  id: string;
  split: string;
  set: string;
  bonaFide: boolean;
  status: 'ok' | 'quality' | 'no-face';
  /** logits[v] = the three raw outputs for VARIANTS[v]. */
  logits?: number[][];
}

export function flipPlanar(x: Float32Array, size: number): Float32Array {
  const out = new Float32Array(x.length);
  for (let c = 0; c < 3; c++)
    for (let y = 0; y < size; y++)
      for (let i = 0; i < size; i++) out[c * size * size + y * size + i] = x[c * size * size + y * size + size - 1 - i];
  return out;
}

async function scan(): Promise<void> {
  const face = await createFaceEngine({ intraOpNumThreads: 1 });
  const file = builtModelPath('liveness_minifasnet_128.onnx', { manifest: 'liveness-manifest.json' })!;
  const session = await ort.InferenceSession.create(file, { graphOptimizationLevel: 'all', executionMode: 'sequential', interOpNumThreads: 1, intraOpNumThreads: 1 });
  const acquired = JSON.parse(readFileSync('.cache/liveness-bench/g3-60-1/acquired.json', 'utf8')) as Array<{ id: string; split: string; set: string; bonaFide: boolean; file: string; box: FaceBox | null }>;
  let lfwI = 0;
  const inputs = acquired.filter((a) => a.set !== 'lfw' || lfwI++ % 4 === 0);
  for (const p of publicSampleFiles(PUBLIC_DIR)) {
    const img = await face.decode(new Uint8Array(readFileSync(p.file)));
    const d = await face.detect(img);
    inputs.push({ id: `public/${p.name}`, split: 'heldout', set: p.set, bonaFide: p.label === 'bona fide', file: p.file, box: d.length ? d[0].box : null });
  }
  const out: Item[] = [];
  const t0 = Date.now();
  for (const a of inputs) {
    const meta = { id: a.id, split: a.split, set: a.set, bonaFide: a.bonaFide };
    if (!a.box) {
      out.push({ ...meta, status: 'no-face' });
      continue;
    }
    const img: RgbRaster = await face.decode(new Uint8Array(readFileSync(a.file)));
    const box = a.box;
    const fails = gateFailures(faceExposure(faceSample(img, box)), box.width, DEFAULT_LIVENESS_TUNING.gates);
    if (fails.length) {
      out.push({ ...meta, status: 'quality' });
      continue;
    }
    const logits: number[][] = [];
    for (const v of VARIANTS) {
      const b = { ...box, x: box.x + v.dx * box.width, y: box.y + v.dy * box.height };
      let x = resizePlanar(img, silentFaceRect(b, img.width, img.height, v.scale), 128, 'bgr');
      if (v.flip) x = flipPlanar(x, 128);
      const r = await session.run({ input: new ort.Tensor('float32', x, [1, 3, 128, 128]) });
      logits.push(Array.from(r.output.data as Float32Array));
    }
    out.push({ ...meta, status: 'ok', logits });
    if (out.length % 100 === 0) console.log(`${out.length} / ${inputs.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  writeFileSync(CACHE, JSON.stringify({ variants: VARIANTS, items: out }));
  console.log(`wrote ${CACHE}`);
}

if (!process.argv.includes('--eval') && !process.argv.includes('--disagree')) await scan();

/** P(real) of one item under the variants `vs`: 'logits' = softmax of the mean raw logits, 'probs' = mean of the softmax outputs. */
export function ttaReal(logits: number[][], vs: number[], how: 'logits' | 'probs'): number {
  const soft = (z: number[]): number[] => {
    const m = Math.max(...z);
    const e = z.map((v) => Math.exp(v - m));
    const s = e[0] + e[1] + e[2];
    return e.map((v) => v / s);
  };
  if (how === 'logits') {
    const z = [0, 1, 2].map((k) => vs.reduce((s, v) => s + logits[v][k], 0) / vs.length);
    return soft(z)[0];
  }
  return vs.reduce((s, v) => s + soft(logits[v])[0], 0) / vs.length;
}

function evaluate(): void {
  const { variants, items } = JSON.parse(readFileSync(CACHE, 'utf8')) as { variants: Variant[]; items: Item[] };
  const padFile = path.resolve('.cache/liveness-bench/tta-pad-v1.json');
  const padIdx: Record<string, number> = {};
  if (existsSync(padFile)) {
    const pad = JSON.parse(readFileSync(padFile, 'utf8')) as { variants: Array<{ fill: string; scale: number }>; items: Array<{ id: string; logits?: number[][] }> };
    const byId = new Map(pad.items.map((it) => [it.id, it]));
    pad.variants.forEach((v, k) => (padIdx[`pad ${v.fill} ${v.scale}`] = variants.length + k));
    // Items scanned after the padded crops were (the screen replays) have no padded logits: NaN.
    for (const it of items) if (it.logits) it.logits.push(...(byId.get(it.id)?.logits ?? pad.variants.map(() => [NaN, NaN, NaN])));
  }
  const idx = (f: (v: Variant) => boolean): number[] => variants.map((v, i) => (f(v) ? i : -1)).filter((i) => i >= 0);
  const c0 = (v: Variant): boolean => v.dx === 0 && v.dy === 0;
  const combos: Record<string, number[]> = {
    'base 2.7': idx((v) => v.scale === 2.7 && c0(v) && !v.flip),
    '2.7 + flip': idx((v) => v.scale === 2.7 && c0(v)),
    '2.2/2.7/3.2': idx((v) => c0(v) && !v.flip && v.scale < 4),
    '2.2/2.7/3.2 + flip': idx((v) => c0(v) && v.scale < 4),
    '2.7/3.2 + flip': idx((v) => c0(v) && (v.scale === 2.7 || v.scale === 3.2)),
    '2.7 shifts': idx((v) => v.scale === 2.7 && !v.flip),
    '2.7 shifts + flip': idx((v) => v.scale === 2.7),
    '2.7 + 4.0': idx((v) => c0(v) && !v.flip && (v.scale === 2.7 || v.scale === 4)),
    '2.7 + 4.0 + flip': idx((v) => c0(v) && (v.scale === 2.7 || v.scale === 4)),
    'all scales centre + flip': idx((v) => c0(v)),
    'all 32': variants.map((_, i) => i),
    'only 2.2': idx((v) => v.scale === 2.2 && c0(v) && !v.flip),
    'only 3.2': idx((v) => v.scale === 3.2 && c0(v) && !v.flip),
    'only 4.0': idx((v) => v.scale === 4 && c0(v) && !v.flip),
  };
  const at = (scale: number, dx: number, dy: number, flip: boolean): number => variants.findIndex((v) => v.scale === scale && v.dx === dx && v.dy === dy && v.flip === flip);
  const b = at(2.7, 0, 0, false);
  for (const [n, dx, dy] of [['x-', -0.08, 0], ['x+', 0.08, 0], ['y-', 0, -0.08], ['y+', 0, 0.08]] as const) {
    combos[`only ${n}`] = [at(2.7, dx, dy, false)];
    combos[`base + ${n}`] = [b, at(2.7, dx, dy, false)];
  }
  combos['base + x-x+'] = [b, at(2.7, -0.08, 0, false), at(2.7, 0.08, 0, false)];
  combos['base + y-y+'] = [b, at(2.7, 0, -0.08, false), at(2.7, 0, 0.08, false)];
  combos['base + flip + y+'] = [b, at(2.7, 0, 0, true), at(2.7, 0, 0.08, false)];
  combos['base + flip + y-'] = [b, at(2.7, 0, 0, true), at(2.7, 0, -0.08, false)];
  combos['only flip'] = [at(2.7, 0, 0, true)];
  for (const [k, i] of Object.entries(padIdx)) {
    combos[k] = [i];
    combos[`base + ${k}`] = [b, i];
  }
  if (process.argv.includes('--pad')) for (const k of Object.keys(combos)) if (!k.includes('pad') && k !== 'base 2.7' && k !== 'base + y+' && k !== 'base + y-y+') delete combos[k];
  if (process.argv.includes('--short')) for (const k of Object.keys(combos)) if (k.startsWith('only 2') || k.startsWith('only 3') || k.startsWith('only 4') || k.includes('4.0') || k.includes('3.2')) delete combos[k];
  const okItems = items.filter((it) => it.status === 'ok');
  const pc = (x: number): string => (Number.isNaN(x) ? '-' : (100 * x).toFixed(1));
  const aucOf = (pos: number[], neg: number[]): number => {
    let s = 0;
    for (const p of pos) for (const n of neg) s += p > n ? 1 : p === n ? 0.5 : 0;
    return s / (pos.length * neg.length);
  };
  const ATT = ['print', 'print-closeup', 'screen', 'screen-closeup', 'cutout'];
  for (const how of (process.argv.includes('--short') ? ['logits'] : ['logits', 'probs']) as Array<'logits' | 'probs'>) {
    const rows: Array<Record<string, string>> = [];
    for (const [name, vs] of Object.entries(combos)) {
      const sc = (it: Item): number => ttaReal(it.logits!, vs, how);
      const row: Record<string, string> = { combo: name };
      for (const split of ['tune', 'heldout']) {
        const part = okItems.filter((it) => it.split === split && !['nuaa', 'replay', 'public', 'public-other', 'spoof-samples'].includes(it.set));
        const lc = part.filter((it) => it.set === 'live-camera').map(sc);
        const lfw = part.filter((it) => it.set === 'lfw').map(sc);
        const att = part.filter((it) => !it.bonaFide).map(sc);
        const t = split === 'tune' ? 't' : 'h';
        row[`${t} AUC`] = aucOf([...lc, ...lfw], att).toFixed(3);
        row[`${t} BP lc/lfw`] = `${pc(lc.filter((s) => s < 0.5).length / lc.length)}/${pc(lfw.filter((s) => s < 0.5).length / lfw.length)}`;
        row[`${t} AP@.5`] = ATT.map((a) => {
          const x = part.filter((it) => it.set === a).map(sc);
          return pc(x.filter((s) => s >= 0.5).length / x.length);
        }).join('/');
        // APCER at BPCER 3 % of live-camera
        const sorted = [...lc].sort((a, b) => a - b);
        const th = sorted[Math.floor(0.03 * sorted.length)];
        row[`${t} AP@BP3`] = ATT.map((a) => {
          const x = part.filter((it) => it.set === a).map(sc);
          return pc(x.filter((s) => s >= th).length / x.length);
        }).join('/');
      }
      const nc = okItems.filter((it) => it.set === 'nuaa' && it.bonaFide).map(sc);
      const ni = okItems.filter((it) => it.set === 'nuaa' && !it.bonaFide).map(sc);
      row['NUAA AUC'] = aucOf(nc, ni).toFixed(3);
      for (const half of [1, 0]) {
        const subj = (it: Item): number => Number(/_(\d{4})_/.exec(it.id)![1]) % 2;
        const hc = okItems.filter((it) => it.set === 'nuaa' && it.bonaFide && subj(it) === half).map(sc);
        const hi = okItems.filter((it) => it.set === 'nuaa' && !it.bonaFide && subj(it) === half).map(sc);
        row[`N${half ? 'odd' : 'even'} AUC BP/AP`] = `${aucOf(hc, hi).toFixed(3)} ${pc(hc.filter((x) => x < 0.5).length / hc.length)}/${pc(hi.filter((x) => x >= 0.5).length / hi.length)}`;
      }
      row['NUAA BP/AP'] = `${pc(nc.filter((s) => s < 0.5).length / nc.length)}/${pc(ni.filter((s) => s >= 0.5).length / ni.length)}`;
      // Real screen replays (bench/liveness/public-replay.sh): all sources, and the full-frame videos alone.
      for (const [label, keep] of [['replay', () => true], ['replay video', (it: Item) => !it.id.includes('replay-crop-')]] as const) {
        const rb = okItems.filter((it) => it.set === 'replay' && it.bonaFide && keep(it)).map(sc);
        const ra = okItems.filter((it) => it.set === 'replay' && !it.bonaFide && keep(it)).map(sc);
        if (rb.length && ra.length) row[`${label} AUC BP/AP`] = `${aucOf(rb, ra).toFixed(3)} ${pc(rb.filter((x) => x < 0.5).length / rb.length)}/${pc(ra.filter((x) => x >= 0.5).length / ra.length)}`;
      }
      row.real = okItems
        .filter((it) => it.set === 'spoof-samples' || it.set === 'public')
        .map((it) => `${it.id.replace(/.*\//, '').replace(/\.jpg$/, '').replace('image_', '').replace('doubango-', 'D')}:${sc(it).toFixed(2)}`)
        .join(' ');
      rows.push(row);
    }
    console.log(`\naggregation: ${how}`);
    console.table(rows);
  }
}
/**
 * `--disagree`: the two chosen views' disagreement (|log-odds difference| of P(real)) as a would-be
 * quality gate ("the check cannot be trusted"): per set, images refused and the error among the rest.
 */
function disagreement(): void {
  const { variants, items } = JSON.parse(readFileSync(CACHE, 'utf8')) as { variants: Variant[]; items: Item[] };
  const at = (dy: number): number => variants.findIndex((v) => v.scale === 2.7 && v.dx === 0 && v.dy === dy && !v.flip);
  const [b, y] = [at(0), at(0.08)];
  const lo = (p: number): number => Math.log((p + 1e-6) / (1 - p + 1e-6));
  const groups: Record<string, Array<{ d: number; s: number; bona: boolean }>> = {};
  for (const it of items.filter((x) => x.status === 'ok' && !['spoof-samples', 'public', 'public-other'].includes(x.set))) {
    const g = it.set === 'nuaa' || it.set === 'replay' ? `${it.set}-${it.bonaFide ? 'bona-fide' : 'attack'}` : `${it.split}:${it.set}`;
    const d = Math.abs(lo(ttaReal(it.logits!, [b], 'logits')) - lo(ttaReal(it.logits!, [y], 'logits')));
    (groups[g] ??= []).push({ d, s: ttaReal(it.logits!, [b, y], 'logits'), bona: it.bonaFide });
  }
  for (const D of [1, 2, 3, 4, Infinity]) {
    const cells = Object.entries(groups).map(([g, xs]) => {
      const kept = xs.filter((x) => x.d <= D);
      const err = kept.filter((x) => (x.bona ? x.s < 0.5 : x.s >= 0.5)).length;
      return `${g} refused ${xs.length - kept.length}, error ${((100 * err) / kept.length).toFixed(1)} %`;
    });
    console.log(`max disagreement ${D}: ${cells.join(' | ')}`);
  }
}

if (process.argv.includes('--eval')) evaluate();
if (process.argv.includes('--disagree')) disagreement();
