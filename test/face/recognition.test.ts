/**
 * Recognition on real photos (acceptance of issue 3):
 * - 50 LFW people enrolled from one photo each; a different photo of each identified: rank-1 >= 48.
 * - 200 LFW people never enrolled: identified as nobody (best score < threshold) for >= 198.
 * - verify (probe vs the person's templates) and match (image vs image) agree with identify.
 * - bbt-cast (8 people x 5 grayscale 150x150 crops): every crop identified against the others: 40/40.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFaceEngine, type OnnxFaceEngine } from '../../src/face/index.js';
import { BBT_DIR, HAVE_BBT, HAVE_LFW, LFW_IMAGES, lfwPath } from './datasets.js';

let engine: OnnxFaceEngine;

function lfwPeople(): { multi: string[]; single: string[] } {
  const counts = new Map<string, number>();
  for (const f of readdirSync(LFW_IMAGES).sort()) {
    const m = /^(.*)_(\d{4})\.jpg$/.exec(f);
    if (m) counts.set(m[1], (counts.get(m[1]) ?? 0) + 1);
  }
  const names = [...counts.keys()].sort();
  return { multi: names.filter((n) => counts.get(n)! >= 2), single: names.filter((n) => counts.get(n) === 1) };
}

beforeAll(async () => {
  engine = await createFaceEngine();
});

describe.skipIf(!HAVE_LFW)('LFW identification (50 enrolled, 50 genuine probes, 200 impostor probes)', () => {
  const enrolled = new Map<string, Uint8Array>();
  const gallery = () => g;
  let g: ReturnType<OnnxFaceEngine['createGallery']>;
  let people: string[] = [];
  let impostors: string[] = [];
  const rejected: string[] = [];

  beforeAll(async () => {
    const { multi, single } = lfwPeople();
    people = multi.filter((_, i) => i % 14 === 0).slice(0, 50);
    impostors = single.filter((_, i) => i % 6 === 0).slice(0, 200);
    g = engine.createGallery();
    for (const name of people) {
      try {
        const t = (await engine.extract(readFileSync(lfwPath(name, 1)), 'enroll')).template;
        enrolled.set(name, t);
        g.upsert(name, [t]);
      } catch (e) {
        rejected.push(`${name}: ${(e as Error).message}`);
      }
    }
  }, 300_000);

  it('enrolls the 50 first photos (quality limits reject at most 1)', () => {
    expect(people.length).toBe(50);
    expect(rejected.length, rejected.join('; ')).toBeLessThanOrEqual(1);
  });

  it('rank-1 identification of a different photo: >= 48 of 50, and verify/match agree', async () => {
    let correct = 0;
    let verified = 0;
    const misses: string[] = [];
    for (const name of people) {
      const bytes = readFileSync(lfwPath(name, 2));
      const probe = (await engine.extract(bytes, 'probe')).template;
      const [hit] = await gallery().searchAsync(probe, 1);
      const identified = hit && hit.score >= engine.defaultThreshold ? hit.extId : null;
      if (identified === name) correct++;
      else misses.push(`${name} -> ${hit?.extId} (${hit?.score.toFixed(3)})`);
      const ref = enrolled.get(name);
      if (ref) {
        const verifyScore = engine.similarity(probe, ref);
        // verify and identify use the same scores: the person's verify score is its gallery score,
        // and identify names this person exactly when it is the best and passes the threshold.
        const persons = await gallery().searchAsync(probe, 50);
        expect(persons.find((h) => h.extId === name)?.score).toBe(verifyScore);
        expect(identified === name).toBe(verifyScore >= engine.defaultThreshold && hit.extId === name);
        if (verifyScore >= engine.defaultThreshold) verified++;
        // match: image vs image gives the verify score
        const matchScore = engine.similarity((await engine.extract(readFileSync(lfwPath(name, 1)), 'probe')).template, probe);
        expect(matchScore).toBeCloseTo(verifyScore, 6);
      }
    }
    expect(verified).toBeGreaterThanOrEqual(correct);
    console.log(`[face] LFW rank-1: ${correct}/50 (verify accepted ${verified}); misses: ${misses.join('; ') || 'none'}`);
    expect(correct).toBeGreaterThanOrEqual(48);
  }, 300_000);

  it('impostors (never enrolled) are identified as nobody: >= 198 of 200', async () => {
    let nobody = 0;
    const falseHits: string[] = [];
    for (const name of impostors) {
      const probe = (await engine.extract(readFileSync(lfwPath(name, 1)), 'probe')).template;
      const [hit] = await gallery().searchAsync(probe, 1);
      if (!hit || hit.score < engine.defaultThreshold) nobody++;
      else falseHits.push(`${name} -> ${hit.extId} (${hit.score.toFixed(3)})`);
    }
    console.log(`[face] impostors identified as nobody: ${nobody}/200; false hits: ${falseHits.join('; ') || 'none'}`);
    expect(nobody).toBeGreaterThanOrEqual(198);
  }, 300_000);
});

describe.skipIf(!HAVE_BBT)('bbt-cast identification (grayscale 150x150 crops)', () => {
  it('identifies each of the 40 crops against the other 39: 40/40', async () => {
    const people = readdirSync(BBT_DIR).filter((d) => !d.includes('.')).sort();
    const templates = new Map<string, Uint8Array>();
    for (const p of people) {
      for (const f of readdirSync(path.join(BBT_DIR, p)).sort()) {
        templates.set(`${p}/${f}`, (await engine.extract(readFileSync(path.join(BBT_DIR, p, f)), 'probe')).template);
      }
    }
    expect(templates.size).toBe(40);
    let correct = 0;
    const misses: string[] = [];
    for (const [key, probe] of templates) {
      const g = engine.createGallery();
      for (const p of people) g.upsert(p, [...templates].filter(([k]) => k.startsWith(`${p}/`) && k !== key).map(([, t]) => t));
      const [hit] = g.search(probe, 1);
      if (hit.extId === key.split('/')[0] && hit.score >= engine.defaultThreshold) correct++;
      else misses.push(`${key} -> ${hit.extId} (${hit.score.toFixed(3)})`);
    }
    console.log(`[face] bbt-cast: ${correct}/40; misses: ${misses.join('; ') || 'none'}`);
    expect(correct).toBe(40);
  }, 300_000);
});
