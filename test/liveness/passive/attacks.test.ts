/** The bench's attack-set generator is reproducible: a sample is a function of its seed alone. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ATTACK_TYPES, FRAME, fnv1a, generateSet, liveCameraRecipe, makeSample, partPhotoIndex, sourcePhotos } from '../../../bench/liveness/attacks.js';
import { HAVE_DATA, LFW_IMAGES } from './datasets.js';

const raster = async (file: string) => {
  const { data, info } = await sharp(readFileSync(file)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data: new Uint8Array(data) };
};

describe.skipIf(!HAVE_DATA)('liveness attack-set generator', () => {
  it('splits lfw-dev by identity, one photo per person, no person in both parts', () => {
    const { tune, heldout } = sourcePhotos(LFW_IMAGES);
    const person = (f: string) => f.replace(/_\d{4}\.jpg$/, '');
    expect(tune.length).toBeGreaterThan(100);
    expect(heldout.length).toBeGreaterThan(100);
    const a = new Set(tune.map(person));
    expect(heldout.some((f) => a.has(person(f)))).toBe(false);
    expect(new Set(tune.map(person)).size).toBe(tune.length);
  });

  it('gives the same JPEG for the same seed, another for another seed, for every type', async () => {
    const { tune } = sourcePhotos(LFW_IMAGES);
    const photo = await raster(path.join(LFW_IMAGES, tune[0]));
    const other = await raster(path.join(LFW_IMAGES, tune[1]));
    for (const type of ['live-camera', ...ATTACK_TYPES] as const) {
      const a = await makeSample(type, photo, other, 42);
      const b = await makeSample(type, photo, other, 42);
      const c = await makeSample(type, photo, other, 43);
      expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
      expect(Buffer.from(a).equals(Buffer.from(c))).toBe(false);
      const meta = await sharp(a).metadata();
      expect([type, meta.format, meta.width, meta.height]).toEqual([type, 'jpeg', FRAME, FRAME]);
    }
  }, 300_000); // 18 samples at the media's physical scale (about 1 s per print on one idle core)

  it('the fresh part takes other held-out people than the heldout part, with other seeds', async () => {
    const sources = { heldout: new Set<string>(), fresh: new Set<string>() };
    for await (const x of generateSet(LFW_IMAGES, 4, ['live-camera'], ['heldout', 'fresh'])) sources[x.split as 'heldout' | 'fresh'].add(x.source);
    const { heldout } = sourcePhotos(LFW_IMAGES);
    expect(sources.fresh.size).toBe(4);
    for (const f of sources.fresh) {
      expect(heldout).toContain(f);
      expect(sources.heldout.has(f)).toBe(false);
    }
  }, 60_000);

  it('the fresh2 part takes held-out people that neither heldout nor fresh take (indices only: nothing of it is rendered)', () => {
    const { heldout } = sourcePhotos(LFW_IMAGES);
    for (const n of [30, 60, 100]) {
      const idx = (split: 'heldout' | 'fresh' | 'fresh2') => new Set(Array.from({ length: n }, (_, i) => partPhotoIndex(split, i, n, heldout.length)));
      const [h, f, f2] = [idx('heldout'), idx('fresh'), idx('fresh2')];
      expect(f2.size).toBe(n);
      for (const i of f2) {
        expect(h.has(i)).toBe(false);
        expect(f.has(i)).toBe(false);
      }
    }
  });

  it('liveCameraRecipe gives the camera of a live-camera sample: low light is darker', async () => {
    const { tune } = sourcePhotos(LFW_IMAGES);
    const photo = await raster(path.join(LFW_IMAGES, tune[0]));
    const seeds = Array.from({ length: 40 }, (_, i) => fnv1a(`recipe/${i}`));
    const dark = seeds.find((s) => liveCameraRecipe(s).lowLight)!;
    const normal = seeds.find((s) => !liveCameraRecipe(s).lowLight && liveCameraRecipe(s).gain > 1)!;
    const mean = async (seed: number) => {
      const { data } = await sharp(await makeSample('live-camera', photo, photo, seed)).raw().toBuffer({ resolveWithObject: true });
      return data.reduce((s, v) => s + v, 0) / data.length;
    };
    expect(liveCameraRecipe(dark)).toEqual(liveCameraRecipe(dark));
    expect(await mean(dark)).toBeLessThan(0.75 * (await mean(normal)));
  }, 60_000);
});
