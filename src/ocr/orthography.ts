/**
 * Diacritics the recogniser dropped from names, put back only where Portuguese spelling leaves no
 * choice. No lexicon of names: the rules are the orthography's own, and each one says what it assumes.
 *
 * Source: Formulário Ortográfico de 1943 (Academia Brasileira de Letras; the spelling Brazilian
 * registries use), Bases XI-XII of the Acordo Ortográfico de 1990 (Decreto 6.583/2008), and the
 * Vocabulário Ortográfico da Língua Portuguesa (VOLP, ABL) for the absence of counter-examples:
 *
 * - NASAL_AO: the nasal diphthong [ɐ̃w] at the end of a word is written "ão" (mão, João, Sebastião,
 *   Brandão); an unstressed "-ao" at the end of a word does not occur in Portuguese (the only "ao" is
 *   the two-letter contraction a + o, left alone). So a name word of three letters or more ending in
 *   AO (or AOS) was ÃO (ÃOS) before the tilde was lost.
 * - "-ães" (Guimarães, Magalhães) is NOT restored: surnames keep an older "-aes" with a stressed A in
 *   hiatus (Moraes, Arraes; the untouched part final5 read ARRAES as ARRÃES 13 times when this
 *   rule existed). A lost tilde there is left to the box test (doubts.ts lostMarkWords: ink above the
 *   letters, the word read again enlarged) and otherwise stays as read.
 * - CEDILLA_CAO: the suffix "-ção" (Conceição, Assunção, ação): before ÃO a C after a vowel or N is,
 *   in names, the suffix's Ç. Known exceptions are augmentatives of nouns in -co/-ca (macacão,
 *   brancão), not names; after L or R (Falcão, porcão) the C is left as read.
 *
 * - CIRCUMFLEX_NASAL: in Brazilian spelling a stressed a, e or o before M or N and a vowel, or before
 *   N and a consonant, is closed (nasal) and, where it is marked, marked with the circumflex (Ângela,
 *   Mônica, Antônio, Rômulo, gênero; Formulário Ortográfico de 1943, accentuation rules; Acordo 1990,
 *   Bases IX and XI: tonic e/o before m or n, circumflex in Brazil, acute in Portugal).
 *   An acute there (MÓNICA, ÁNGELA: the European spelling, or the recogniser's confusion of the two
 *   marks) is read as the circumflex. Oxytones in -ÉM/-ÉNS (Belém, parabéns) end there and keep
 *   their acute.
 *
 * "-ões" (Simões) is NOT restored: unstressed "-oes" exists (verb forms such as perdoes, voes).
 *
 * Names spelt in another language (a station also reads Spanish, Chinese, Korean names) are not
 * Portuguese words, and the rules above are not applied to them (fourteenth round, final12: HAO read
 * back as "HÃO" ten times, GIMÉNEZ as "GIMÊNEZ", IBÁNEZ as "IBÂNEZ", XIMÉNA as "XIMÊNA"):
 * - FOREIGN_SPELLING: a name with a word that Portuguese spelling cannot produce is spelt in Spanish,
 *   and CIRCUMFLEX_NASAL touches none of its words (Spanish writes the acute there: Giménez, Ángela):
 *   an Ñ, or an accent before a word's last syllable in a word ending in Z (Portuguese words in -z
 *   are stressed on their last syllable and carry no accent before it, Queiroz, Muniz, Diniz; the
 *   accented paroxytones in -ez, -iz, -oz, -az are Spanish: Giménez, Benítez, Rodríguez, Díaz).
 *   A letter of Latin Extended-A (Ř, Š, Ž, Ě, Ů, Ő: Czech, Slovak, Hungarian; only a text layer brings one,
 *   the recogniser never writes them) makes a name foreign too: NÉMETH beside DVOŘÁK keeps its acute
 *   (final16's text-layer PDFs read it "NÊMETH").
 *   The name keeps the cap (name-spelling.ts) since a Portuguese reading would have mended it: a mark
 *   may still be lost (IBÁNEZ for IBÁÑEZ), so it is not read sure. The -ÃO rules still apply (João
 *   González). LL is no sign: Brazilian names write it often (Kelly, Wellington, Camilla).
 * - ONE_SYLLABLE_AO: a person's name word of one syllable ending in AO (no vowel before the AO: HAO,
 *   GAO, ZHAO, YAO, the Chinese syllable) is not mended: the -ão words of Portuguese names have two
 *   syllables or more (João, Adão, Leão, Brandão, Conceição); the one-syllable ones are common words
 *   (mão, pão, são) and, in a name, only "São" after DE, DA, DO (Maria de São José), which is mended.
 *   Towns (the birthplace) keep the rule: SAO PAULO is São Paulo.
 * - KEEP_ACUTE: an acute that the ink shows clearly (glyph-accent.ts clearAcute; the caller's `keepAcute`
 *   words) is not made a circumflex: registries write names as their bearers spell them, and Brazil
 *   spells some with the open É before M or N (Émerson, Édina; thirty-first round, final29: ÉMERSON read
 *   right at 0.91 and written "ÊMERSON" three times). The rule and the ink disagree, so the word is
 *   declined and the name keeps the cap (name-spelling.ts).
 * - PLAIN_AO: a word read ending in AO whose ink shows blank paper over the A (glyph-plain-ao.ts; the
 *   caller's `plainAo` words) was printed without the tilde: registries keep some surnames so (CALHAO,
 *   an old family of Cuiabá; final32 read it "CALHÃO" six times). The rule and the ink disagree, so the
 *   word is declined, kept as read, and the name keeps the cap (name-spelling.ts).
 * - FRENCH_GRAVE: a person's name word with an acute or circumflex E followed by consonants only and a
 *   final E (NADÉGE, MARIÊME) is no Portuguese spelling (paroxytones ending in -e carry no accent:
 *   Irene, Simone, Celeste; the old differential Ê of surnames, Rêgo, Macêdo, ends in -o) but a French
 *   one, and French writes the grave there (the open e before a consonant and a mute final e: Hélène,
 *   Irène, Nadège, Marième; Ê there is rare in names). The Portuguese model has no È and reads it as
 *   É or Ê (final13: MARIÈME read "MARIÊME" at 0.904, NADÈGE "NADÉGE" at 0.892), so the word is read
 *   with È, and the name keeps the cap (name-spelling.ts): the mark was inferred, not read. The word
 *   gets no circumflex (CIRCUMFLEX_NASAL would make MARIÉME "MARIÊME").
 */
import { BEYOND_LATIN1 } from './normalize.js';

/** One applied rule: the word as read and as restored. */
export type OrthographyRule = 'NASAL_AO' | 'CEDILLA_CAO' | 'CIRCUMFLEX_NASAL' | 'FRENCH_GRAVE';
export interface Restoration { from: string; to: string; rules: OrthographyRule[] }

const VOWEL_OR_N = /[AEIOUÁÉÍÓÚÂÊÔÃÕN]/;

/** One word (uppercase) -> restored word and the rules used (none: unchanged). */
function restoreWord(w: string, circumflex = true): { word: string; rules: OrthographyRule[] } {
  const rules: OrthographyRule[] = [];
  let out = !circumflex ? w : w.replace(/[ÁÉÓ](?=[MN][AEIOUÁÉÍÓÚÂÊÔÃÕ]|N[B-DF-HJ-NP-TV-ZÇ](?!$))/g, (c) => ({ Á: 'Â', É: 'Ê', Ó: 'Ô' } as Record<string, string>)[c]);
  if (out !== w) rules.push('CIRCUMFLEX_NASAL');
  const ao = /^(.+)AO(S?)$/.exec(out);
  if (ao && out.length >= 3) {
    let stem = ao[1];
    if (stem.endsWith('C') && stem.length >= 2 && VOWEL_OR_N.test(stem[stem.length - 2])) {
      stem = `${stem.slice(0, -1)}Ç`;
      rules.push('CEDILLA_CAO');
    }
    out = `${stem}ÃO${ao[2]}`;
    rules.push('NASAL_AO');
  } else if (/^.+CÃO$/.test(out) && VOWEL_OR_N.test(out[out.length - 4])) {
    // The tilde was read, the cedilla lost.
    out = `${out.slice(0, -3)}ÇÃO`;
    rules.push('CEDILLA_CAO');
  }
  return { word: out, rules };
}

/**
 * A name (uppercase words separated by single spaces, as normalize.ts's normalizeName returns) with
 * the diacritics the rules above require put back; `restored` lists each changed word. Words the
 * rules do not cover are returned as read.
 */
export function restoreDiacritics(name: string, options: { person?: boolean; keepAcute?: ReadonlySet<string>; plainAo?: ReadonlySet<string> } = {}): { name: string; restored: Restoration[]; declined: string[] } {
  const restored: Restoration[] = [];
  const declined: string[] = [];
  const all = name.split(' ');
  const foreign = all.some(foreignSpelling);
  const words = all.map((w, i) => {
    if (w.length < 3) return w;
    // A person's one-syllable -AO word (ONE_SYLLABLE_AO).
    if (options.person && oneSyllableAo(w) && !/^D[AEO]S?$/.test(all[i - 1] ?? '')) {
      declined.push(w);
      return w;
    }
    // An open e marked before consonants and a final mute e (FRENCH_GRAVE).
    if (options.person && FRENCH_GRAVE.test(w)) {
      const to = w.replace(FRENCH_GRAVE, 'È$1');
      restored.push({ from: w, to, rules: ['FRENCH_GRAVE'] });
      return to;
    }
    // An -AO word whose ink shows no tilde over the A (PLAIN_AO): as printed.
    if (options.plainAo?.has(w) && restoreWord(w).rules.includes('NASAL_AO')) {
      declined.push(w);
      return w;
    }
    // A name spelt in Spanish (FOREIGN_SPELLING), or an acute the ink shows clearly (keepAcute): no circumflex.
    const keep = options.keepAcute?.has(w) === true;
    const r = restoreWord(w, !foreign && !keep);
    if ((foreign || keep) && restoreWord(w).word !== r.word) declined.push(w);
    if (r.word === w) return w;
    restored.push({ from: w, to: r.word, rules: r.rules });
    return r.word;
  });
  return { name: words.join(' '), restored, declined };
}

/** A letter past Latin-1 that a name may hold (normalize.ts BEYOND_LATIN1). */
const PAST_LATIN1 = new RegExp(`[${BEYOND_LATIN1}]`);

/** É or Ê, then consonants only, then the word's final E (FRENCH_GRAVE above); $1: the consonants and the E. */
const FRENCH_GRAVE = /[ÉÊ]([B-DF-HJ-NP-TV-ZÇ]+E)$/;

/**
 * A word Portuguese spelling cannot produce (FOREIGN_SPELLING above): Ñ, a letter of Latin Extended-A or -B or
 * Extended Additional (Ş, Ș, Ə, Ạ: only a text layer or the ink readers bring one), or an accented paroxytone in -Z.
 */
export function foreignSpelling(w: string): boolean {
  return w.includes('Ñ') || PAST_LATIN1.test(w) || /[ÁÉÍÓÚ][^AEIOUÁÉÍÓÚÂÊÔÃÕ]*[AEIOU]Z$/.test(w);
}

/** A word of one syllable ending in AO (ONE_SYLLABLE_AO above): no vowel before the AO. */
export function oneSyllableAo(w: string): boolean {
  return /^[^AEIOUÁÉÍÓÚÂÊÔÃÕY]+AOS?$/.test(w);
}

/**
 * Name words no orthography of the names a station reads spells, so misread (a letter or its mark lost
 * or taken for another), never mended here, only doubted (fields.ts: under the low-confidence line):
 * - A final É after I ("JOVANOVIÉ", "RADIÉ" for JOVANOVIĆ, RADIĆ: the acute over Ć seen, the C under it
 *   taken for E). Portuguese and Spanish words end in -é only after a consonant (José, André, Noé after
 *   a vowel other than I); Croatian, Serbian and the other Slavic Latin alphabets have no É; Vietnamese
 *   writes the diphthong iê with its circumflex, and without a final consonant as -ia, never -ié. Only a
 *   French participle ends so (marié), not a name.
 * - A final UO before a Vietnamese final consonant (NG, C, T, M, P) with the O plain or under an acute,
 *   grave, tilde or hook ("TRUONG", "PHUÓC", "CUÒNG" for TRƯƠNG, PHƯỚC, CƯỜNG): Vietnamese writes that
 *   diphthong uô or ươ, never a bare uo (Quốc Ngữ's vowel letters); Lithuanian and Finnish UO ends no
 *   word in those consonants (JUOZAS, SUOMI), pinyin writes -UO, -ONG and -UANG, not -UONG. A
 *   transliteration that drops every mark (a Vietnamese name on a foreign passport) comes back under
 *   the line too: the card may have printed the marks.
 * - A word opening with Ð (U+00D0, Icelandic and Faroese eth): those languages never start a word with
 *   it; a name word that opens with such a letter is Đ (U+0110) written with the wrong code point.
 * Source: the alphabets' letter inventories (Unicode's Latin blocks), Quốc Ngữ's rules for the
 * diphthongs ia/iê, ua/uô, ưa/ươ.
 */
export function unspeltWords(valor: string): string[] {
  return valor.split(/[\s,]+/).filter((w) => /IÉ$/.test(w) || /UO(NG|C|T|M|P)$/.test(w.replace(/[ÓÒÕỎỌ]/g, 'O')) || w.startsWith('Ð'));
}
