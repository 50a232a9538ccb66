/**
 * Doubts over the name lines (and the birthplace's town) from what their words show, moved out of
 * fields.ts extractFields (behaviour unchanged): a word broken in two or a gap that held letters (a
 * misread value: BROKEN_WORD_CAP), a line cut to a lone capital at its end, a mark or a word of its
 * type after it or a wide gap (letters lost: NAME_DOUBT_CAP), words the recogniser shows misread, and
 * a mark above a capital that was not read (LOST_DIACRITIC_CAP, the word read again enlarged).
 */
import { type CnhFieldName } from './engine.js';
import { type Draft } from './checks.js';
import { LOST_DIACRITIC_CAP } from './name-spelling.js';
import { cutAtEnd, lineHole, lostMarkWords, MARK_ABOVE, markOverName, misreadNameWords, tallNameWords, tightGap, wideGap } from './doubts.js';
import { townGap } from './field-lines.js';
import { wordLeftOut } from './name-tails.js';
import { fold, toPhrase, type OcrWord, type Phrase } from './words.js';
import type { Suspect } from './fields.js';

/** Confidence cap of a name with a word that says it was misread (doubts.ts misreadNameWords). */
export const NAME_DOUBT_CAP = 0.7;
/**
 * Confidence cap of a name or town with a word broken in two (doubts.ts tightGap) or a hole that held a
 * word (lineHole): further under the line than NAME_DOUBT_CAP, since such a value is misread as it
 * stands, so that another reading's whole word (at 0.7 when its own box shows a lost mark) is taken over
 * it (final11 #36, #57).
 */
const BROKEN_WORD_CAP = 0.55;
/**
 * Enlargement of a name word read again for a diacritic it seems to have lost (doubts.ts
 * lostMarkWords): the mark over a capital is a few pixels at value size.
 */
export const LOST_MARK_SCALE = 2;
/** The new reading of such a word is taken only this confident (and only when it adds the mark). */
const LOST_MARK_CONF = 0.7;
/** At most this many such words are read again per page (most cards print one or two accents a line). */
export const MAX_LOST_MARK_REREADS = 3;

/** The lines a name's or the town's value was read from (fields.ts extractFields). */
export interface NameLines {
  /** The name's phrases (under its label, or above the next label when it was unread). */
  name: Phrase[];
  /** The phrases under the name's label (none when it was unread). */
  nameLabelled: Phrase[];
  pai?: Phrase;
  mae?: Phrase;
  /** Field 3's birth line (2022 model), empty otherwise. */
  birth: Phrase[];
}

/**
 * Caps `d`'s names and town in place where their lines show a loss or a misreading; returns the
 * suspects (words whose lost mark is worth a second, enlarged look: at most MAX_LOST_MARK_REREADS).
 */
export function doubtNameLines(d: Partial<Record<CnhFieldName, Draft>>, phrases: Phrase[], lines: NameLines): Suspect[] {
  const suspects: Suspect[] = [];
  // Names (and the birthplace's town) with a word whose box shows a mark above it that was not read:
  // under the low-confidence line, and the word read again enlarged (taken if it then reads the mark).
  const marked: OcrWord[] = [];
  const lostMark = (k: CnhFieldName, ps: Phrase[]): void => {
    const lost = lostMarkWords(ps);
    const v = d[k];
    if (!lost.length || !v?.valor) return;
    d[k] = { ...v, cap: Math.min(v.cap ?? 1, LOST_DIACRITIC_CAP) };
    marked.push(...lost);
  };
  // Names read sure with a word that says otherwise (doubts.ts misreadNameWords: small letters, a box
  // far wider than its letters; tallNameWords: a box far taller than the line's): under the low-confidence line.
  const misread = (k: CnhFieldName, ps: Phrase[]): void => {
    const v = d[k];
    if (v?.valor && (misreadNameWords(ps).length || tallNameWords(ps).length)) d[k] = { ...v, cap: Math.min(v.cap ?? 1, NAME_DOUBT_CAP) };
  };
  // A name with an unsure tall mark over or just after it (doubts.ts markOverName), a gap between its words
  // as wide as a letter and a space (wideGap), or a word of its type after it left out (name-tails.ts
  // wordLeftOut): letters may be lost. A gap that held a whole word (lineHole, on a line of three words
  // too, where wideGap does not look) is a loss for sure: BROKEN_WORD_CAP, so that a reading without it
  // is taken over it.
  const endHidden = (k: CnhFieldName, line: Phrase | undefined): void => {
    const v = d[k];
    if (v?.valor && line && (markOverName(line, phrases) || wideGap(line) || lineHole(line) || wordLeftOut(line, phrases))) d[k] = { ...v, cap: Math.min(v.cap ?? 1, lineHole(line) ? BROKEN_WORD_CAP : NAME_DOUBT_CAP) };
  };
  // A word broken in two by the recogniser, its pieces closer than a printed space (doubts.ts tightGap), or a
  // birth line with a gap that held letters (field-lines.ts townGap): the value is misread, and a surer
  // reading of it may take its place (second-read.ts mergeReadings).
  const broken = (k: CnhFieldName, ps: Phrase[], lost = false): void => {
    const v = d[k];
    if (v?.valor && ps.length && (lost || tightGap(ps))) d[k] = { ...v, cap: Math.min(v.cap ?? 1, BROKEN_WORD_CAP) };
  };
  broken('nome_completo', lines.name);
  if (lines.pai) broken('nome_pai', [lines.pai]);
  if (lines.mae) broken('nome_mae', [lines.mae]);
  if (lines.birth.length) broken('local_nascimento', lines.birth, townGap(lines.birth));
  // A name's line ending in a lone capital of its type (doubts.ts cutAtEnd): a word cut to its first
  // letter, the name's end lost: BROKEN_WORD_CAP, so that a whole reading is taken over it.
  const cutEnd = (k: CnhFieldName, line: Phrase | undefined): void => {
    const v = d[k];
    if (v?.valor && line && cutAtEnd(line)) d[k] = { ...v, cap: Math.min(v.cap ?? 1, BROKEN_WORD_CAP) };
  };
  cutEnd('nome_completo', lines.name.at(-1));
  cutEnd('nome_pai', lines.pai);
  cutEnd('nome_mae', lines.mae);
  // The name's line as read under its label, else the one read above the next label (fields.ts: the label unread).
  endHidden('nome_completo', (lines.nameLabelled.length ? lines.nameLabelled : lines.name).at(-1));
  endHidden('nome_pai', lines.pai);
  endHidden('nome_mae', lines.mae);
  misread('nome_completo', lines.nameLabelled);
  if (lines.pai) misread('nome_pai', [lines.pai]);
  if (lines.mae) misread('nome_mae', [lines.mae]);
  lostMark('nome_completo', lines.nameLabelled);
  if (lines.pai) lostMark('nome_pai', [lines.pai]);
  if (lines.mae) lostMark('nome_mae', [lines.mae]);
  if (lines.birth.length) lostMark('local_nascimento', lines.birth);
  for (const w of [...new Set(marked)].slice(0, MAX_LOST_MARK_REREADS)) {
    const plain = w.text.replace(/,$/, '');
    const accept = (t: string): boolean => !t.includes(' ') && MARK_ABOVE.test(t) && fold(t).replace(/,$/, '') === plain;
    suspects.push({ phrase: toPhrase([w]), accept, scale: LOST_MARK_SCALE, minConf: LOST_MARK_CONF });
  }
  return suspects;
}
