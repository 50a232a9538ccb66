/**
 * A notary's authentication stamp read into a name or the birthplace's town (issue #17; moved out of
 * doubts.ts and fields.ts in the eighteenth round, behaviour unchanged): its words known, and cut out
 * of the values they were read into. Pure functions on values.
 */
import { type CnhFieldName } from './engine.js';
import { type Draft } from './checks.js';
import { normalizeName } from './normalize.js';
import { editDistance, fold } from './words.js';

/**
 * Words of a notary's authentication stamp ("carimbo de autenticação": AUTENTICAÇÃO, CONFERE COM O
 * ORIGINAL, TABELIÃO, CARTÓRIO DO 1º OFÍCIO DE NOTAS), folded. A notarised copy of a CNH is common; its
 * stamp is printed over the card and its words read into values next to it (final10 #68: AUTENTICAÇÃO
 * joined to the holder's name). None of them is a name or a town.
 */
const STAMP_WORDS = ['AUTENTICACAO', 'AUTENTICADO', 'CONFERE', 'ORIGINAL', 'TABELIAO', 'TABELIONATO', 'CARTORIO', 'OFICIO', 'NOTAS'];

/** Whether a word (any case, marks, punctuation) is a stamp's word: exactly up to 6 letters, 1 edit up to 9, 2 from 10. */
export function isStampWord(word: string): boolean {
  const t = fold(word).replace(/[^A-Z]/g, '');
  if (t.length < 5) return false;
  return STAMP_WORDS.some((s) => {
    const tol = s.length >= 10 ? 2 : s.length >= 7 ? 1 : 0;
    return Math.abs(t.length - s.length) <= tol && (tol === 0 ? t === s : editDistance(t, s) <= tol);
  });
}

/**
 * The stamp's words (isStampWord) cut out of the names and the birthplace's town of `d` (in place), and
 * what is left capped at `cap` (the stamp may hide more of the value); a value left empty is dropped.
 * The town keeps its ", UF" parts apart.
 */
export function cutStampWords(d: Partial<Record<CnhFieldName, Draft>>, cap: number): void {
  for (const k of ['nome_completo', 'nome_pai', 'nome_mae', 'local_nascimento'] as const) {
    const v = d[k];
    if (!v?.valor) continue;
    const parts = v.valor.split(',');
    const cut = parts.map((part) => part.split(' ').filter((t) => !isStampWord(t)).join(' ').trim());
    if (cut.join(',') === parts.map((part) => part.trim()).join(',')) continue;
    const valor = k === 'local_nascimento' ? cut.filter(Boolean).join(', ') : normalizeName(cut.join(' '));
    d[k] = valor ? { ...v, valor, cap: Math.min(v.cap ?? 1, cap) } : { valor: '', conf: 0 };
  }
}
