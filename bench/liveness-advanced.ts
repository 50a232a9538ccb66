/**
 * Advanced liveness check time and verdicts (`npx tsx bench/liveness-advanced.ts [--n 20] [--no-passive]`).
 *
 * For N lfw-dev photos: a 640x480 key frame (the photo centred over a blurred copy, as the e2e fake
 * camera shows it), the face box from the station's face engine, then challenge frames in which the
 * face region is tinted toward each challenge colour (a simulated screen reflection, ~30 of 255) with
 * sensor-like noise; sealed with the client encoder (WebCrypto) and checked by the real service:
 * face engine inspector, passive detector (src/liveness/passive) unless --no-passive. The station's
 * clock is shifted by 10 s so the timing rule sees the sequence as shown.
 * Prints per photo the verdict and the check time, then p50 / p95 / max of the check time.
 */
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { integrityProof, packPlaintext, sealPayload, unhex } from '../renderer/capture/liveness/payload.js';
import type { CaptureMetadata } from '../renderer/capture/liveness/metadata.js';
import { createFaceEngine } from '../src/face/index.js';
import { ChallengeStore } from '../src/liveness/advanced/challenge.js';
import { EngineFaceInspector } from '../src/liveness/advanced/face-inspector.js';
import { LivenessKeyStore } from '../src/liveness/advanced/keys.js';
import { passiveFromEngine } from '../src/liveness/advanced/passive.js';
import { AdvancedLivenessService } from '../src/liveness/advanced/service.js';
import { LivenessError } from '../src/liveness/service.js';
import { createPassiveLivenessEngine } from '../src/liveness/passive/index.js';

const arg = (name: string, def: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : def);
const N = arg('--n', 20);
const DATASETS = process.env.BIOSTATION_DATASETS ?? path.resolve('../shared/datasets');
const LFW = path.join(DATASETS, 'lfw-dev/images');
const W = 640;
const H = 480;
const CODE = 'bench build';
const BUILD = createHash('sha256').update(CODE).digest('hex');

async function baseFrame(photo: string): Promise<Buffer> {
  const bg = await sharp(photo).resize(W, H, { fit: 'cover' }).blur(20).toBuffer();
  return sharp(bg).composite([{ input: await sharp(photo).resize(H, H).toBuffer(), left: (W - H) / 2, top: 0 }]).removeAlpha().raw().toBuffer();
}

function tinted(base: Buffer, box: { x: number; y: number; width: number; height: number }, rgb: [number, number, number] | null, seed: number): Promise<Buffer> {
  const out = Buffer.from(base);
  let s = seed * 2654435761 || 1;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const inFace = x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height;
      for (let c = 0; c < 3; c++) {
        s ^= s << 13;
        s ^= s >>> 17;
        s ^= s << 5;
        const n = (((s >>> 0) / 0xffffffff) * 2 - 1) * 3;
        const lit = rgb ? (inFace ? 30 : 6) * (rgb[c] / 255 - 1 / 3) : 0;
        const p = (y * W + x) * 3 + c;
        out[p] = Math.max(0, Math.min(255, Math.round(base[p] + lit + n)));
      }
    }
  }
  return sharp(out, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
}

const face = await createFaceEngine();
const passive = process.argv.includes('--no-passive') ? undefined : passiveFromEngine(async () => passiveEngine);
const passiveEngine = await createPassiveLivenessEngine();
const keys = LivenessKeyStore.ephemeral();
const challenges = new ChallengeStore();
const service = new AdvancedLivenessService({ keys, challenges, builds: { hashes: () => new Set([BUILD]) }, faces: new EngineFaceInspector(async () => face), passive, now: () => Date.now() + 10_000 });

const photos = readdirSync(LFW).filter((f) => f.endsWith('.jpg')).sort().filter((_f, i, all) => i % Math.max(1, Math.floor(all.length / N)) === 0).slice(0, N);
const times: number[] = [];
const cpus: number[] = [];
const stages: Array<NonNullable<Awaited<ReturnType<typeof service.evaluate>>['timings']>> = [];
let passed = 0;
console.log('| photo | answer | face p | capture p | rejection | check ms |\n|---|---|---|---|---|---|');
for (const name of photos) {
  const base = await baseFrame(path.join(LFW, name));
  const keyJpeg = await tinted(base, { x: 0, y: 0, width: 0, height: 0 }, null, 7);
  let box;
  try {
    box = (await face.extract(new Uint8Array(keyJpeg), 'probe')).box;
  } catch {
    console.log(`| ${name} | no face found by the engine | | | | |`);
    continue;
  }
  const c = challenges.issue('bench');
  const frames: Uint8Array[] = [keyJpeg];
  const meta: CaptureMetadata['frames'] = [{ role: 'key', t_ms: -300, width: W, height: H }];
  const shown: number[] = [];
  let t0 = 0;
  let i = 0;
  for (const col of c.colours) {
    shown.push(t0);
    for (let t = t0 + 160; t < t0 + col.durationMs; t += 100) {
      frames.push(await tinted(base, box, col.rgb, ++i));
      meta.push({ role: 'challenge', t_ms: t, width: W, height: H });
    }
    t0 += col.durationMs;
  }
  const m: CaptureMetadata = {
    v: 1,
    challenge: { nonce: c.nonce, started_at: Date.now(), ended_at: Date.now() + t0, shown_ms: shown },
    frames: meta,
    camera: { label: 'Integrated Camera', device_count: 1, labels: ['Integrated Camera'], settings: { width: W, height: H }, capabilities: null, probes: [] },
    timing: { frame_count: 60, mean_interval_ms: 33, jitter_ms: 2, source: 'rvfc' },
    webgl: null,
    automation: { webdriver: false, cdp_traces: [], cdp_runtime: false, headless_ua: false, native: {}, botd: null },
    navigator: { user_agent: 'Mozilla/5.0 Chrome/141', ua_data: null, languages: [], platform: 'Linux', hardware_concurrency: 4 },
    screen: { width: 1920, height: 1080, avail_width: 1920, avail_height: 1080, device_pixel_ratio: 1, color_depth: 24 },
    page: { origin: 'https://localhost', secure_context: true },
    sdk: { version: 'bench', build_hash: BUILD, proof: await integrityProof(BUILD, c.nonce), source_url: '' },
  };
  const key = keys.current;
  const payload = await sealPayload(packPlaintext({ metadata: m, frames }), new Uint8Array(key.publicPoint), unhex(key.kid));
  const start = performance.now();
  const cpu0 = process.cpuUsage();
  try {
    const report = await service.evaluate(payload, { applicationId: 'bench' });
    const r = report.result;
    const ms = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    cpus.push((cpu.user + cpu.system) / 1000);
    const st = report.timings!;
    stages.push(st);
    times.push(ms);
    const d = r.data;
    if (d.capture_liveness.rejection.length === 0 && d.capture_liveness.probability >= 0.5) passed++;
    console.log(`| ${name} | 200 | ${d.face_liveness.probability} | ${d.capture_liveness.probability} | ${d.capture_liveness.rejection.join(' ') || '-'} | ${ms.toFixed(0)} (cpu ${((cpu.user + cpu.system) / 1000).toFixed(0)}; decrypt ${st.decryptMs.toFixed(0)}, decode ${st.decodeMs.toFixed(0)}, face ${st.faceMs.toFixed(0)}, signals ${st.signalsMs.toFixed(0)}, passive ${st.passiveMs.toFixed(0)}) |`);
  } catch (e) {
    const ms = performance.now() - start;
    times.push(ms);
    console.log(`| ${name} | ${e instanceof LivenessError ? `${e.status} ${e.errorCode}` : String(e)} | | | | ${ms.toFixed(0)} |`);
  }
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]?.toFixed(0);
const med = (f: (s: (typeof stages)[number]) => number) => q(stages.map(f), 0.5);
console.log(`\n${times.length} checks, ${passed} capture-legitimate (empty rejection, capture p >= 0.5), passive ${passive ? 'on' : 'off'}, 13-19 frames each`);
console.log(`check wall ms: p50 ${q(times, 0.5)}, p95 ${q(times, 0.95)}, max ${q(times, 1)}; process CPU ms per 200 check: p50 ${q(cpus, 0.5)}, max ${q(cpus, 1)}`);
console.log(`stage medians ms (200 answers): decrypt ${med((s) => s.decryptMs)}, decode ${med((s) => s.decodeMs)}, face ${med((s) => s.faceMs)}, signals ${med((s) => s.signalsMs)}, passive ${med((s) => s.passiveMs)}; load average ${(await import('node:os')).loadavg()[0].toFixed(1)}`);
await face.close?.();
