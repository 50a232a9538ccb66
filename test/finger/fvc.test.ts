import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FingerEngine } from '../../src/finger/engine.js';
import { createFingerEngine } from '../../src/finger/index.js';
import { WorkerFingerGallery } from '../../src/finger/gallery/gallery.js';
import { fvcDir, hasFvc } from './datasets.js';

describe.skipIf(!hasFvc)('fvc2002/DB1_B at the default threshold', () => {
  let engine: FingerEngine;
  const templates = new Map<string, Uint8Array>();

  beforeAll(async () => {
    engine = await createFingerEngine();
    for (let f = 101; f <= 110; f++) {
      for (let i = 1; i <= 8; i++) {
        const name = `${f}_${i}`;
        const result = await engine.extract(new Uint8Array(readFileSync(path.join(fvcDir('fvc2002/DB1_B'), `${name}.png`))), { dpi: 500 });
        expect(result.minutiaCount).toBeGreaterThan(0);
        templates.set(name, result.template);
      }
    }
  }, 120_000);

  it('verify accepts at least 95 % of the 280 genuine FVC pairs', () => {
    let accepted = 0;
    let total = 0;
    for (let f = 101; f <= 110; f++) {
      for (let i = 1; i <= 8; i++) {
        for (let j = i + 1; j <= 8; j++) {
          total++;
          if (engine.similarity(templates.get(`${f}_${i}`)!, templates.get(`${f}_${j}`)!) >= engine.defaultThreshold) accepted++;
        }
      }
    }
    expect(total).toBe(280);
    expect(accepted / total).toBeGreaterThanOrEqual(0.95);
  });

  it('verify rejects every impostor pair (all 2,880)', () => {
    let falseMatches = 0;
    for (let f = 101; f <= 110; f++) {
      for (let g = f + 1; g <= 110; g++) {
        for (let i = 1; i <= 8; i++) {
          for (let j = 1; j <= 8; j++) {
            if (engine.similarity(templates.get(`${f}_${i}`)!, templates.get(`${g}_${j}`)!) >= engine.defaultThreshold) falseMatches++;
          }
        }
      }
    }
    expect(falseMatches).toBe(0);
  });

  it('identify finds the right finger for at least 9 of 10 probes', async () => {
    const gallery = engine.createGallery();
    for (let f = 101; f <= 110; f++) gallery.upsert(`finger-${f}`, [templates.get(`${f}_1`)!, templates.get(`${f}_2`)!]);
    expect(gallery.size).toBe(10);
    let correct = 0;
    for (let f = 101; f <= 110; f++) {
      const hits = await gallery.search(templates.get(`${f}_8`)!, 3);
      expect(hits.length).toBe(3);
      expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score);
      if (hits[0].extId === `finger-${f}` && hits[0].score >= engine.defaultThreshold) correct++;
    }
    expect(correct).toBeGreaterThanOrEqual(9);
    gallery.remove('finger-101');
    expect(gallery.size).toBe(9);
  });

  it('identify over worker threads gives the same ranking as in-process search', async () => {
    const threaded = new WorkerFingerGallery(2, 0);
    const local = new WorkerFingerGallery(1, Infinity);
    try {
      for (let f = 101; f <= 110; f++) {
        for (const g of [threaded, local]) g.upsert(`finger-${f}`, [templates.get(`${f}_1`)!, templates.get(`${f}_3`)!]);
      }
      threaded.remove('finger-110');
      threaded.upsert('finger-110', [templates.get('110_1')!, templates.get('110_3')!]);
      for (const f of [101, 105, 110]) {
        const a = await threaded.search(templates.get(`${f}_6`)!, 4);
        const b = await local.search(templates.get(`${f}_6`)!, 4);
        expect(a).toEqual(b);
      }
    } finally {
      await threaded.close();
      await local.close();
    }
  });
});
