// Confirmation of the two network views on NUAA crops that took no part in choosing them (issue #20;
// README "Two views of the face"): one view against the default views, BPCER / APCER at the default
// threshold and AUC. `bench/liveness/public-samples.sh <doubango> <nuaa> .cache/liveness-public-nuaa21 21`
// then `npx tsx bench/liveness/views-check.mts .cache/liveness-public-nuaa21`.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createFaceEngine } from '../../src/face/index.js';
import { createPassiveLivenessEngine, DEFAULT_LIVENESS_TUNING } from '../../src/liveness/passive/index.js';
import { gateFailures } from '../../src/liveness/passive/engine.js';
import { auc } from './fit.js';

const dir = path.resolve(process.argv[2] ?? '.cache/liveness-public-nuaa21', 'nuaa');
const face = await createFaceEngine({ intraOpNumThreads: 1 });
const one = await createPassiveLivenessEngine({ tuning: { views: [{ dx: 0, dy: 0 }] } });
const two = await createPassiveLivenessEngine();
const T = DEFAULT_LIVENESS_TUNING.threshold;
const rows: Array<{ client: boolean; p1: number; p2: number }> = [];
let gated = 0;
let faceless = 0;
for (const kind of ['client', 'imposter']) {
  for (const f of readdirSync(path.join(dir, kind)).filter((x) => x.endsWith('.jpg')).sort()) {
    const img = await face.decode(new Uint8Array(readFileSync(path.join(dir, kind, f))));
    const [det] = await face.detect(img);
    if (!det) {
      faceless++;
      continue;
    }
    const m1 = await one.measure(img, det.box, false).catch(() => null);
    if (!m1 || gateFailures(m1.exposure, det.box.width, DEFAULT_LIVENESS_TUNING.gates).length) {
      gated++;
      continue;
    }
    const m2 = await two.measure(img, det.box, false);
    rows.push({ client: kind === 'client', p1: m1.cnn!.real, p2: m2.cnn!.real });
  }
}
const c = rows.filter((r) => r.client);
const i = rows.filter((r) => !r.client);
const pc = (n: number, d: number): string => `${((100 * n) / d).toFixed(1)} % (${n} of ${d})`;
console.log(`${dir}: ${c.length} clients and ${i.length} imposters judged, ${gated} quality gate, ${faceless} no face`);
for (const [name, k] of [['one view', 'p1'], ['two views (default)', 'p2']] as const) {
  console.log(`  ${name}: BPCER ${pc(c.filter((r) => r[k] < T).length, c.length)}, APCER ${pc(i.filter((r) => r[k] >= T).length, i.length)}, AUC ${auc(c.map((r) => r[k]), i.map((r) => r[k])).toFixed(3)}`);
}
console.log(`  changes one -> two views: imposters newly passed ${i.filter((r) => r.p1 < T && r.p2 >= T).length}, newly refused ${i.filter((r) => r.p1 >= T && r.p2 < T).length}; clients newly passed ${c.filter((r) => r.p1 < T && r.p2 >= T).length}, newly refused ${c.filter((r) => r.p1 >= T && r.p2 < T).length}`);
