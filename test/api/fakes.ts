import type { FaceEngine, FaceGallery } from '../../src/face/engine.js';
import type { FingerEngine, FingerGallery } from '../../src/finger/engine.js';
import { FaceError } from '../../src/face/errors.js';
import { FingerError } from '../../src/finger/errors.js';

/**
 * Stand-in engines for the HTTP contract tests: an "image" is the text `PERSON:<name>`, its
 * template is `T:<name>`, and two templates match when the names are equal. `NOFACE` and
 * anything else give the engines' input errors. Real engines are tested in test/face and
 * test/finger on real images.
 */
const text = (b: Uint8Array) => Buffer.from(b).toString('utf8');

/** The typed errors each fake engine throws, as its real engine does (FaceError / FingerError). */
type Modality = 'face' | 'finger';
const engineError = (modality: Modality, code: 'INVALID_IMAGE' | 'INVALID_TEMPLATE' | 'NONE'): Error =>
  modality === 'face' ? new FaceError(code === 'NONE' ? 'NO_FACE' : code) : new FingerError(code === 'NONE' ? 'NO_FINGERPRINT' : code);

function templateOf(image: Uint8Array, modality: Modality): Uint8Array {
  const s = text(image);
  if (s === 'NONE') throw engineError(modality, 'NONE');
  if (!s.startsWith('PERSON:')) throw engineError(modality, 'INVALID_IMAGE');
  return new Uint8Array(Buffer.from(`T:${s.slice(7)}`));
}

const similarityOf = (modality: Modality) => (a: Uint8Array, b: Uint8Array): number => {
  const [sa, sb] = [text(a), text(b)];
  if (!sa.startsWith('T:') || !sb.startsWith('T:')) throw engineError(modality, 'INVALID_TEMPLATE');
  return sa === sb ? 1 : 0;
};

class MapGallery {
  private readonly people = new Map<string, Uint8Array[]>();
  constructor(private readonly similarity: (a: Uint8Array, b: Uint8Array) => number) {}
  /** Refuses an unreadable template as the real galleries do (they decode every template on upsert). */
  upsert(extId: string, templates: Uint8Array[]) {
    for (const t of templates) this.similarity(t, t);
    this.people.set(extId, templates);
  }
  remove(extId: string) {
    this.people.delete(extId);
  }
  get size() {
    return [...this.people.values()].reduce((n, t) => n + t.length, 0);
  }
  searchSync(probe: Uint8Array, topK: number) {
    return [...this.people]
      .map(([extId, ts]) => ({ extId, score: Math.max(...ts.map((t) => this.similarity(probe, t))) }))
      .sort((x, y) => y.score - x.score)
      .slice(0, topK);
  }
}

const faceSimilarity = similarityOf('face');
const fingerSimilarity = similarityOf('finger');

export const fakeFaceEngine = async (): Promise<FaceEngine> => ({
  modelId: 'fake@1',
  defaultThreshold: 0.5,
  identifyThreshold: 0.6,
  async extract(image) {
    return {
      template: templateOf(image, 'face'),
      box: { x: 0, y: 0, width: 100, height: 100 },
      quality: { interOcularPx: 40, faceWidthPx: 100, sharpness: 100, yawDeg: 0, pitchDeg: 0, rollDeg: 0, meanLuma: 120, detectionScore: 0.99 },
    };
  },
  similarity: faceSimilarity,
  assertCompatible(t) {
    faceSimilarity(t, t);
  },
  createGallery(): FaceGallery {
    const g = new MapGallery(faceSimilarity);
    return {
      upsert: (e, t) => g.upsert(e, t),
      remove: (e) => g.remove(e),
      get size() { return g.size; },
      search: (p, k) => g.searchSync(p, k),
      searchAsync: async (p, k) => g.searchSync(p, k),
    };
  },
});

export const fakeFingerEngine = async (): Promise<FingerEngine> => ({
  defaultThreshold: 0.5,
  async extract(image) {
    return { template: templateOf(image, 'finger'), quality: 80, minutiaCount: 40 };
  },
  similarity: fingerSimilarity,
  similarityOfInterchange: fingerSimilarity,
  createGallery(): FingerGallery {
    const g = new MapGallery(fingerSimilarity);
    return { upsert: (e, t) => g.upsert(e, t), remove: (e) => g.remove(e), get size() { return g.size; }, search: async (p, k) => g.searchSync(p, k) };
  },
});

export const b64 = (s: string) => Buffer.from(s).toString('base64');
export const faceBody = (...names: string[]) => ({ Images: names.map((n) => ({ imageType: 'frontal', imageData: b64(`PERSON:${n}`) })) });
