import { parseTemplate } from '../finger/index.js';
import { DEFAULT_TUNING } from '../face/index.js';
import { EMBEDDING_DIM, faceModelId } from '../face/template/template-space.js';
import { decodeCompatible } from '../face/template/template.js';
import type { Modality } from './wire.js';

/**
 * Whether this station can compare a template: a face template must carry this build's face model
 * id and dimension (the same check the face engine makes, without loading its networks, so the CLI
 * can run it against a stopped station's data); a fingerprint template must parse as an ISO/IEC
 * 19794-2 (2005/2011) or ANSI 378 record. Throws the engine's error when not.
 */
export function assertComparable(modality: Modality, template: Uint8Array): void {
  if (modality === 'face') decodeCompatible(template, faceModelId(DEFAULT_TUNING.flip), EMBEDDING_DIM);
  else parseTemplate(template);
}

/** True when every template of a person is comparable here. */
export function comparable(modality: Modality, templates: Array<{ data: Uint8Array }>): boolean {
  try {
    for (const t of templates) assertComparable(modality, t.data);
    return true;
  } catch {
    return false;
  }
}

/**
 * The station's check: its loaded engines decide (the face engine's model id, the fingerprint
 * matcher reading the record); a disabled engine falls back to assertComparable.
 */
export function engineTemplateCheck(
  face: { get(): Promise<{ assertCompatible(t: Uint8Array): void }> },
  finger: { get(): Promise<{ similarity(a: Uint8Array, b: Uint8Array): number }> },
): (modality: Modality) => Promise<(template: Uint8Array) => void> {
  return async (modality) => {
    if (modality === 'face') {
      const engine = await face.get().catch(() => undefined);
      return engine ? (t) => engine.assertCompatible(t) : (t) => assertComparable('face', t);
    }
    const engine = await finger.get().catch(() => undefined);
    return engine ? (t) => void engine.similarity(t, t) : (t) => assertComparable('finger', t);
  };
}
