/**
 * Names as Portuguese spells them, after the fields are read (fields.ts extractFields): the diacritics
 * spelling requires put back (orthography.ts), one spelling for a surname printed twice on a card, and
 * hyphens the recogniser made of marks next to a particle read as spaces. Each lowers the value's
 * confidence where the rest of it may share the loss.
 */
import { NAME_FIELDS, type CnhFieldName } from './engine.js';
import type { Draft } from './checks.js';
import { oneSyllableAo, restoreDiacritics } from './orthography.js';
import { fold } from './words.js';

/**
 * Confidence cap of a name in which the recogniser lost a diacritic that spelling requires (a word
 * put back by orthography.ts): the rules cover only some words (a lost acute or circumflex cannot be
 * told from a word written without one), so the rest of the value may have lost accents too.
 */
export const LOST_DIACRITIC_CAP = 0.7;

/**
 * Names and the birthplace's town with the diacritics Portuguese spelling requires put back
 * (orthography.ts restoreDiacritics; `keepAcute`: words whose every acute the ink shows clearly, never
 * made circumflexes; `plainAo`: words read -AO whose ink shows no tilde, glyph-plain-ao.ts); a value with a word put back, or declined, ends with at most LOST_DIACRITIC_CAP
 * (applied after the checks, so a passed format check cannot lift it back over the line).
 */
export function restoreNames(d: Partial<Record<CnhFieldName, Draft>>, keepAcute: ReadonlySet<string> = new Set(), plainAo: ReadonlySet<string> = new Set()): void {
  for (const k of ['nome_completo', 'nome_pai', 'nome_mae', 'local_nascimento'] as const) {
    const v = d[k];
    if (!v?.valor) continue;
    // The birthplace is "CITY, UF" (or a city alone): only the city's words are names.
    const [city, ...rest] = v.valor.split(',');
    const { name, restored, declined } = restoreDiacritics(city, { person: k !== 'local_nascimento', keepAcute, plainAo });
    // A foreign name left as read (orthography.ts FOREIGN_SPELLING) is capped as a mended one: it may have lost a mark.
    if (restored.length || declined.some((w) => !oneSyllableAo(w))) d[k] = { valor: [name, ...rest].join(','), conf: v.conf, cap: LOST_DIACRITIC_CAP };
  }
  sameSpelling(d);
  markedTwins(d);
}

/**
 * A vowel read twice, plain and then marked ("GIOSUEÈ" for GIOSUÈ, boxed as wide as six letters: final15
 * #50): the recogniser wrote one glyph as its plain letter and again with the mark it saw over it. A
 * name spells a vowel and its own marked twin in that order almost never (the marked one first is French:
 * RENÉE, DÉSIRÉE, and is left alone; a vowel before its nasal twin is Portuguese, ABRAÃO, and is left too). The plain one is dropped and the value capped at LOST_DIACRITIC_CAP
 * (which of the two the card prints, and whether a letter was lost between them, is inferred).
 */
export function markedTwins(d: Partial<Record<CnhFieldName, Draft>>): void {
  for (const k of NAME_FIELDS) {
    const v = d[k];
    if (!v?.valor) continue;
    const valor = v.valor.replace(PLAIN_THEN_MARKED, (_m, plain: string, marked: string) => (fold(marked) === plain ? marked : plain + marked));
    if (valor !== v.valor) d[k] = { ...v, valor, cap: Math.min(v.cap ?? 1, LOST_DIACRITIC_CAP) };
  }
}
/**
 * A plain vowel then a marked vowel (markedTwins keeps only pairs of one letter). Not the tilde: Portuguese
 * writes a vowel before its own nasal twin (ABRAÃO; final6's fourteen such names were read right and
 * would have lost a letter).
 */
const PLAIN_THEN_MARKED = /([AEIOU])([ÀÁÂÄÈÉÊËÌÍÎÏÒÓÔÖÙÚÛÜ])/g;

/**
 * A surname printed twice on one card (the holder's and a parent's) has one spelling: a word read
 * without diacritics in one name and with them in another lost them where it has none (the recogniser
 * drops accents far more often than it invents them). It takes the accented spelling and its name is
 * capped at LOST_DIACRITIC_CAP (the same line may have lost other accents; registries also spell a
 * surname differently now and then).
 */
function sameSpelling(d: Partial<Record<CnhFieldName, Draft>>): void {
  const keys = NAME_FIELDS;
  const accented = new Map<string, string>();
  for (const k of keys) for (const w of (d[k]?.valor ?? '').split(' ')) if (w.length > 2 && fold(w) !== w) accented.set(fold(w), w);
  for (const k of keys) {
    const v = d[k];
    if (!v?.valor) continue;
    const words = v.valor.split(' ');
    const fixed = words.map((w) => (w.length > 2 && fold(w) === w ? accented.get(w) ?? w : w));
    if (fixed.some((w, i) => w !== words[i])) d[k] = { ...v, valor: fixed.join(' '), cap: LOST_DIACRITIC_CAP };
  }
}

/** Particles joining a given name to a surname: never part of a hyphenated compound. */
const PARTICLE = '(?:DA|DE|DO|DAS|DOS|E)';
/** A hyphen touching a particle ("MAFALDA-DA", "DA-FROTA"). */
const PARTICLE_HYPHEN = new RegExp(`(?<=(?:^|[ -])${PARTICLE})-|-(?=${PARTICLE}(?:$|[ -]))`, 'g');

/**
 * Hyphens the recogniser made of marks between a name's words ("AMÉLIA MAFALDA-DA FROTA-LEAL" for
 * AMÉLIA MAFALDA DA FROTA LEAL, final4 part): one touching a particle (DA, DE, DO, DAS, DOS, E) is no
 * compound's and is read as the space it stands in. Other hyphens of such a name may be marks too, and
 * cannot be told from a double surname's: the name is then capped at LOST_DIACRITIC_CAP.
 */
export function particleHyphens(d: Partial<Record<CnhFieldName, Draft>>): void {
  for (const k of NAME_FIELDS) {
    const v = d[k];
    if (!v?.valor || !v.valor.match(PARTICLE_HYPHEN)) continue;
    const valor = v.valor.replace(PARTICLE_HYPHEN, ' ');
    d[k] = { ...v, valor, ...(valor.includes('-') ? { cap: Math.min(v.cap ?? 1, LOST_DIACRITIC_CAP) } : {}) };
  }
}
