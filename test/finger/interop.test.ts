import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { FingerEngine } from '../../src/finger/engine.js';
import { createFingerEngine } from '../../src/finger/index.js';
import { FingerError } from '../../src/finger/errors.js';
import { datasetsRoot, fvcDir, sourceAfisDir } from './datasets.js';

const testdata = path.join(datasetsRoot, 'fingerprint-templates', 'sourceafis-testdata');
const fingerjet = path.join(datasetsRoot, 'fingerprint-templates', 'fingerjet-fx-ose-samples');
const read = (...p: string[]) => new Uint8Array(readFileSync(path.join(...p)));

let engine: FingerEngine;
beforeAll(async () => {
  engine = await createFingerEngine();
});

describe.skipIf(!existsSync(testdata))('SourceAFIS test resources', () => {
  it('matches the probe image with the matching image, not with the non-matching one', async () => {
    const probe = await engine.extract(read(testdata, 'probe.png'));
    const matching = await engine.extract(read(testdata, 'matching.png'));
    const nonmatching = await engine.extract(read(testdata, 'nonmatching.png'));
    expect(engine.similarity(probe.template, matching.template)).toBeGreaterThanOrEqual(engine.defaultThreshold);
    expect(engine.similarity(probe.template, nonmatching.template)).toBeLessThan(engine.defaultThreshold);
    const bmp = await engine.extract(read(testdata, 'probe.bmp'));
    expect(Buffer.from(bmp.template).equals(Buffer.from(probe.template))).toBe(true);
    const jpeg = await engine.extract(read(testdata, 'probe.jpeg'));
    expect(engine.similarity(jpeg.template, probe.template)).toBeGreaterThanOrEqual(engine.defaultThreshold);
  });

  it('reads zero-padded ISO 2005 templates and matches them with the same rule', () => {
    const probe = read(testdata, 'iso-probe.dat');
    expect(engine.similarityOfInterchange(probe, read(testdata, 'iso-matching.dat'))).toBeGreaterThanOrEqual(engine.defaultThreshold);
    expect(engine.similarityOfInterchange(probe, read(testdata, 'iso-nonmatching.dat'))).toBeLessThan(engine.defaultThreshold);
  });

  it('rejects WSQ with INVALID_IMAGE (no maintained WSQ decoder)', async () => {
    await expect(engine.extract(read(testdata, 'wsq-original.wsq'))).rejects.toMatchObject({ code: 'INVALID_IMAGE' });
  });
});

describe.skipIf(!existsSync(sourceAfisDir) || !existsSync(fvcDir('fvc2002/DB1_B')))('SourceAFIS-exported templates against ours', () => {
  it('accepts most genuine and rejects the impostor cross-format pairs', async () => {
    const ours = new Map<string, Uint8Array>();
    for (const f of [101, 102, 103, 104]) {
      for (const i of [1, 2]) ours.set(`${f}_${i}`, (await engine.extract(read(fvcDir('fvc2002/DB1_B'), `${f}_${i}.png`))).template);
    }
    let genuine = 0;
    let falseMatches = 0;
    for (const f of [101, 102, 103, 104]) {
      for (const kind of ['iso2005', 'ansi2004', 'iso2011']) {
        const theirs = read(sourceAfisDir, 'fvc2002', 'DB1_B', `${f}_1.${kind}.fmr`);
        if (engine.similarityOfInterchange(theirs, ours.get(`${f}_2`)!) >= engine.defaultThreshold) genuine++;
        for (const g of [101, 102, 103, 104]) {
          if (g !== f && engine.similarityOfInterchange(theirs, ours.get(`${g}_2`)!) >= engine.defaultThreshold) falseMatches++;
        }
      }
    }
    expect(genuine).toBeGreaterThanOrEqual(9);
    expect(falseMatches).toBe(0);
  });
});

describe.skipIf(!existsSync(fingerjet))('FingerJet FX OSE samples', () => {
  it('reads every FingerJet ISO template and rejects the blank MINEX print', async () => {
    for (const name of ['a001_03p', 'a001_04p', 'b001_04p']) {
      expect(engine.similarityOfInterchange(read(fingerjet, 'templates-iso', `${name}.ist`), read(fingerjet, 'templates-iso', `${name}.ist`))).toBeGreaterThan(engine.defaultThreshold);
    }
    const error = await engine.extract(read(fingerjet, 'images-pgm', 'a999_01p.pgm')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FingerError);
    expect((error as FingerError).code).toBe('NO_FINGERPRINT');
  });
});
