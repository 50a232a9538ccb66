/**
 * The in-process gallery mirror is searched in slices on the main thread (issue #18): GalleryShard.searchSliced
 * must return exactly what search returns (same steps, same order), and let the event loop run between slices.
 * Synthetic templates (random minutiae from a fixed seed), one gallery under and one over the vote pre-filter's
 * PREFILTER_MIN_TEMPLATES.
 */
import { describe, expect, it } from 'vitest';
import { GalleryShard, PREFILTER_MIN_TEMPLATES } from '../../src/finger/gallery/gallery-shard.js';
import { writeTemplate } from '../../src/finger/templates/formats.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** An ISO 19794-2:2005 record of 40 random minutiae on a 400 x 500 px, 500 dpi image. */
function template(random: () => number): Uint8Array {
  const minutiae = Array.from({ length: 40 }, () => ({
    x: Math.floor(20 + random() * 360),
    y: Math.floor(20 + random() * 460),
    direction: Math.floor(random() * 256),
    type: random() < 0.5 ? ('ending' as const) : ('bifurcation' as const),
    quality: 60,
  }));
  return writeTemplate({
    width: 400, height: 500, xResolutionPpcm: 197, yResolutionPpcm: 197,
    views: [{ fingerPosition: 1, viewNumber: 0, impressionType: 0, fingerQuality: 60, minutiae, extendedData: new Uint8Array() }],
  }, 'iso-19794-2-2005');
}

describe('GalleryShard.searchSliced (issue #18)', () => {
  it.each([200, PREFILTER_MIN_TEMPLATES + 100])('returns the hits of search for a gallery of %i templates, serving the event loop between slices', async (size) => {
    const random = rng(size);
    const templates = Array.from({ length: size }, () => template(random));
    const shard = new GalleryShard();
    templates.forEach((t, i) => shard.upsert(`p${i}`, [t]));
    expect(shard.search(templates[7], 1)[0].extId).toBe('p7');
    for (const probe of [templates[7], template(random)]) {
      const expected = shard.search(probe, 10);
      let turns = 0;
      let counting = true;
      const count = (): void => {
        turns++;
        if (counting) setImmediate(count);
      };
      setImmediate(count);
      // A slice of 0 ms yields after every step: the most interleaved run, same hits.
      const sliced = await shard.searchSliced(probe, 10, 0);
      counting = false;
      expect(expected.length).toBe(10);
      expect(sliced).toEqual(expected);
      expect(turns).toBeGreaterThan(1);
    }
  });

  it('prepares deferred records in the search, with the hits of eagerly prepared ones (same persons, same order)', async () => {
    const random = rng(99);
    const templates = Array.from({ length: 300 }, () => template(random));
    const eager = new GalleryShard();
    const deferred = new GalleryShard();
    templates.forEach((t, i) => {
      eager.upsert(`p${i % 250}`, [t]); // 50 persons replaced: their place stays the first one's
      deferred.defer(`p${i % 250}`, [t]);
    });
    eager.remove('p3');
    deferred.remove('p3');
    expect(deferred.size).toBe(eager.size);
    const probe = templates[260];
    expect(await deferred.searchSliced(probe, 20, 0)).toEqual(eager.search(probe, 20));
    expect(deferred.search(probe, 20)).toEqual(eager.search(probe, 20));
    expect(eager.search(probe, 1)[0].extId).toBe('p10');
  });
});
