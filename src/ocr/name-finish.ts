/**
 * The names' last steps after every field was read (moved out of fields.ts extractFields, behaviour
 * unchanged): the marks the recogniser lost put back (name-spelling.ts restoreNames), hyphens after a
 * particle undone (particleHyphens), a notary's stamp's words cut out (stamp-words.ts), and the names
 * whose words show letters lost or misread doubted (doubts.ts, orthography.ts).
 */
import { NAME_FIELDS, type CnhFieldName } from './engine.js';
import { type Draft } from './checks.js';
import { headlessWords, joinedWords, orphanDer, vowellessWords } from './doubts.js';
import { NAME_DOUBT_CAP } from './name-doubts.js';
import { particleHyphens, restoreNames } from './name-spelling.js';
import { unspeltWords } from './orthography.js';
import { cutStampWords } from './stamp-words.js';
import { ELL_SPLIT, layerMarkLost, unelidedApostrophes } from './name-marks.js';
import type { Phrase } from './words.js';

/**
 * Finishes the drafted names in place. `d`: the drafts (fields.ts extractFields); `textLayer`: the words
 * were a PDF's text layer (exact: no mark put back, no letter-loss doubt, but a mark inside a word that the
 * name's alphabet dropped doubts it: name-marks.ts layerMarkLost); `phrases`: the page's phrases. Caps set
 * here are NAME_DOUBT_CAP.
 */
export function finishNames(d: Partial<Record<CnhFieldName, Draft>>, textLayer: boolean, phrases: Phrase[]): void {
  // A text layer writes the name the issuer encoded, letter for letter: no mark was lost to put back.
  // Words whose acutes the ink showed clearly (words.ts OcrWord.acuteInk) keep them.
  // Words read -AO with blank paper over the A (OcrWord.plainInk) keep it as printed.
  const flagged = (f: (w: Phrase['words'][number]) => boolean | undefined): Set<string> => new Set(phrases.flatMap((p) => p.words).filter(f).map((w) => w.text.replace(/,$/, '')));
  if (!textLayer) restoreNames(d, flagged((w) => w.acuteInk), flagged((w) => w.plainInk));
  particleHyphens(d);
  // A notary's stamp read into a name or the birthplace's town: its words cut out (stamp-words.ts).
  cutStampWords(d, NAME_DOUBT_CAP);
  // A name word without a vowel lost letters (doubts.ts vowellessWords), as did one opening with L or R
  // before a consonant (headlessWords); one too long for a name is two read as one (joinedWords), a DER
  // without the VAN or VON before it lost that word (orphanDer): under the low-confidence line.
  // A word no orthography of the names spells (orthography.ts unspeltWords: "JOVANOVIÉ", "TRUONG") was misread too.
  // Not on a text layer: its words are the issuer's, no letter lost (Polish PRZYBYŁ, MĘŻYK have no AEIOU).
  // Catalan's L·L read as a hyphen or a space (name-marks.ts ELL_SPLIT) is as often the dot as what was read,
  // and an apostrophe between two vowels (unelidedApostrophes) as often a glottal stop's letter (ʻ, ʼ).
  for (const k of textLayer ? [] : NAME_FIELDS) {
    const v = d[k];
    if (v?.valor && (vowellessWords(v.valor).length || headlessWords(v.valor).length || joinedWords(v.valor).length || orphanDer(v.valor) || unspeltWords(v.valor).length || ELL_SPLIT.test(v.valor) || unelidedApostrophes(v.valor).length)) d[k] = { ...v, cap: Math.min(v.cap ?? 1, NAME_DOUBT_CAP) };
  }
  // A text layer's mark inside a word that the name's alphabet could not keep: the value is not as printed.
  for (const k of textLayer ? NAME_FIELDS : []) {
    const v = d[k];
    if (v?.valor && layerMarkLost(v.valor, phrases)) d[k] = { ...v, cap: Math.min(v.cap ?? 1, NAME_DOUBT_CAP) };
  }
}
