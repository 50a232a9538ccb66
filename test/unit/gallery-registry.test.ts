/** GalleryRegistry: lazy per-application galleries; persons whose templates the engine refuses are left out. */
import { describe, expect, it } from 'vitest';
import { BiostationError } from '../../src/runtime/errors.js';
import { GalleryRegistry, type MutableGallery } from '../../src/services/gallery-registry.js';

/** A gallery that refuses templates starting with byte 0 (as an engine refuses another model's). */
class FakeGallery implements MutableGallery {
  readonly persons = new Map<string, Uint8Array[]>();
  upsert(extId: string, templates: Uint8Array[]): void {
    if (templates.some((t) => t[0] === 0)) throw new BiostationError('TEMPLATE_INCOMPATIBLE');
    if (templates.some((t) => t[0] === 9)) throw new Error('engine crashed');
    this.persons.set(extId, templates);
  }
  remove(extId: string): void {
    this.persons.delete(extId);
  }
}

const source = (people: Array<{ extId: string; templates: Uint8Array[] }>) => ({
  allTemplates: async () => people,
  revision: async () => 1,
});

describe('GalleryRegistry', () => {
  it('leaves out persons with templates of another model, counts them and loads the rest', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error & { code?: string }): void => void warnings.push(`${w.code}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const registry = new GalleryRegistry(async () => new FakeGallery(), source([
        { extId: 'new-1', templates: [Uint8Array.of(1)] },
        { extId: 'old-1', templates: [Uint8Array.of(0)] },
        { extId: 'mixed', templates: [Uint8Array.of(1), Uint8Array.of(0)] },
        { extId: 'new-2', templates: [Uint8Array.of(2)] },
      ]), 'face');
      const g = await registry.get('app-a');
      // 'mixed' keeps its readable template (issue #18: one bad row must not take its person out).
      expect([...g.persons.keys()].sort()).toEqual(['mixed', 'new-1', 'new-2']);
      expect(g.persons.get('mixed')).toEqual([Uint8Array.of(1)]);
      expect(registry.skipped('app-a')).toBe(1);
      expect(registry.skipped('app-b')).toBe(0);
      await new Promise((r) => setImmediate(r));
      expect(warnings.some((w) => w.startsWith('BIOSTATION_GALLERY_SKIPPED: 1 person(s) of application app-a'))).toBe(true);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('still fails the load on any other error (and retries it next time)', async () => {
    const registry = new GalleryRegistry(async () => new FakeGallery(), source([{ extId: 'x', templates: [Uint8Array.of(9)] }]), 'face');
    await expect(registry.get('app')).rejects.toThrow('engine crashed');
    await expect(registry.get('app')).rejects.toThrow('engine crashed');
  });
});
