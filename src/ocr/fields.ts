/**
 * CNH fields from positioned phrases: label-relative values first (layout.ts), then patterns over the
 * full text; validation (CPF and CNH check digits, calendar and order of dates) folded into each field's
 * confidence.
 */
import { CNH_FIELD_NAMES, type CnhField, type CnhFieldName } from './engine.js';
import { detectModel, excessIndent, findLabels, LOST_GLYPH, labelCapHeight, labelHeight, valueAbove, valueBelow, type CnhModel, type FoundLabel, type LabelId } from './layout.js';
import {
  allDates, CATEGORY_SET, digitsOf, isKnownIssuer, normalizeCategory, normalizeCnhNumber, normalizeCpf, normalizeDate, normalizeName, parseIdentity, single, UFS,
} from './normalize.js';
import { isBoilerplate } from './boilerplate.js';
import { isValidCnhNumber, isValidCpf, validateDates } from './validators.js';
import { restoreDiacritics } from './orthography.js';
import { hasDigit, isNameWord, rgWidthFits, TRAILING_PARTICLE, valueConfidence } from './doubts.js';
import { fold, type OcrWord, type Phrase } from './words.js';

/** Confidence below which a field is reported in `campos_com_baixa_confianca` (spec). */
export const LOW_CONFIDENCE = 0.8;

/** Remarks as printed: restriction codes (one letter) and EAR, space-separated. */
const REMARK_CODES = /^(EAR|[A-Z])( (EAR|[A-Z]))*$/;

/**
 * A field's value before scoring, with the recogniser's confidence 0..1; `cap`: the most its final
 * confidence may be, after the checks (restoreNames); `failed`: a check made from the words' boxes
 * failed (doubts.ts widthFits), scored as a failed format check.
 */
export interface Draft { valor: string; conf: number; cap?: number; failed?: boolean }
const none: Draft = { valor: '', conf: 0 };

/**
 * How far above the PERMISSÃO label (older model) the parents' last line may end, in label heights,
 * when the FILIAÇÃO label was not read: the box for two parents' lines leaves room under the last one.
 */
const PARENTS_ABOVE_PERMIT = 6;
/** Confidence cap of a category code that starts a glyph right of where it should (a letter lost). */
const LOST_GLYPH_CAP = 0.7;


/** Raises (passed check) or lowers (failed check) a recogniser confidence. */
export function withValidation(conf: number, passed: boolean | undefined): number {
  if (passed === undefined) return conf;
  return passed ? Math.min(1, 0.6 * conf + 0.4) : 0.6 * conf;
}

export interface ExtractedFields {
  model: CnhModel;
  campos: Record<CnhFieldName, CnhField>;
  /** Labels found (a measure of how well the layout was read). */
  labelsFound: number;
  /**
   * Value phrases whose reading failed its format (CPF/number not 11 digits, no date, identity line
   * without a known issuing body): worth a second, single-line look; `accept` says whether a new
   * reading of the phrase passes.
   */
  suspects: Suspect[];
}

export interface Suspect { phrase: Phrase; accept: (text: string) => boolean }

/**
 * Phrases (+ their reading-order text) -> the fifteen `campos`. Values found by label keep the mean
 * word confidence; pattern fall-backs are scaled by 0.85; fields absent from the document are
 * `{ valor: '', confianca: 0 }`.
 */
export function extractFields(phrases: Phrase[], fullText: string): ExtractedFields {
  const labels = findLabels(phrases);
  const labelPhrases = new Set([...labels.values()].map((l) => l.phrase));
  const model = detectModel(labels, fullText);
  const labelH = labelHeight(labels);
  const capH = labelCapHeight(labels);
  const below = (id: LabelId, lines = 1): Phrase[] => {
    const l: FoundLabel | undefined = labels.get(id);
    return l ? valueBelow(l, phrases, labelPhrases, lines, labelH, capH) : [];
  };
  const suspects: Suspect[] = [];
  const read = (id: LabelId, norm: (s: string) => string, checked = false, part?: (w: OcrWord) => boolean): Draft => {
    const ps = below(id);
    if (!ps.length) return none;
    const valor = norm(ps.map((p) => p.text).join(' '));
    if (!valor && checked && ps.length === 1) suspects.push({ phrase: ps[0], accept: (t) => norm(t) !== '' });
    return valor ? { valor, conf: valueConfidence(ps, part) } : none;
  };
  const d: Partial<Record<CnhFieldName, Draft>> = {};

  d.nome_completo = read('nome', normalizeName, false, isNameWord);
  if (!d.nome_completo.valor) {
    // Label unread: the name is the value right above the next label (identity line / field 3).
    const anchor = labels.get(model === '2022' ? 'nascimento3' : 'identidade');
    const ps = anchor ? valueAbove(anchor, phrases, labelPhrases, labelH) : [];
    const valor = normalizeName(ps.map((p) => p.text).join(' '));
    if (valor) d.nome_completo = { valor, conf: valueConfidence(ps, isNameWord) * 0.9 };
  }
  d.cpf = read('cpf', normalizeCpf, true, hasDigit);
  d.numero_cnh = read('registro', normalizeCnhNumber, true, hasDigit);
  d.categoria = read('categoria', normalizeCategory);
  const catLabel = labels.get('categoria'), catPs = below('categoria');
  if (d.categoria.valor && catLabel && catPs.length === 1) {
    // A code starting a glyph or more right of where this card's values start lost its first letter
    // ("AE" read "E" at 0.97: final2 part): read again from where it should begin, and capped under the
    // low-confidence line unless the new reading is a longer code.
    const excess = excessIndent(catLabel, catPs[0], labels, (id) => below(id)[0]);
    if (excess > LOST_GLYPH * catPs[0].h) {
      const shorter = d.categoria.valor.length;
      suspects.push({ phrase: { ...catPs[0], x0: catPs[0].x0 - excess }, accept: (t) => normalizeCategory(t).length > shorter });
      d.categoria = { ...d.categoria, cap: LOST_GLYPH_CAP };
    }
  }
  d.data_validade = read('validade', normalizeDate, true, hasDigit);
  d.data_emissao = read('emissao', normalizeDate, true, hasDigit);
  d.data_primeira_habilitacao = read('primeira', normalizeDate, true, hasDigit);
  // Restriction codes are plain letters and EAR: a lone "À" is the recogniser's reading of "A", and
  // "EARA" is EAR and a code glued by a space the recogniser missed (no code is four letters long).
  // Marks with no letter ("|", "-", "1": a frame line's edge) are not part of a remark: codes are letters.
  const remarks = (s: string): string => single(s.toUpperCase()).split(' ').filter((t) => /[A-ZÀ-Ý]/.test(t))
    .map((t) => (t === 'À' ? 'A' : /^EAR[A-Z]$/.test(t) ? `EAR ${t[3]}` : t)).join(' ');
  d.observacoes = read('observacoes', remarks);
  // Remarks are often absent: what the recogniser makes of the security print below the label then
  // comes with low confidence (< 0.5) and is not a remark. A lone phrase of codes read that unsure is
  // worth a single-line second look at full width (it replaces the first reading only if it is codes).
  if (d.observacoes.valor && d.observacoes.conf < 0.5) {
    const ps = below('observacoes');
    if (ps.length === 1 && REMARK_CODES.test(d.observacoes.valor)) suspects.push({ phrase: ps[0], accept: (t) => REMARK_CODES.test(remarks(t)) });
    d.observacoes = none;
  }

  // Birth: field 3 of the 2022 model "DD/MM/AAAA, CIDADE, UF"; the older model prints the date alone.
  d.local_nascimento = none;
  const n3 = below('nascimento3');
  if (n3.length) {
    const text = single(n3.map((p) => p.text).join(' '));
    const date = normalizeDate(text);
    const rest = text.replace(/^[^,]*,/, '').split(',').map((s) => normalizeName(s)).filter(Boolean);
    const conf = valueConfidence(n3, isNameWord);
    d.data_nascimento = date ? { valor: date, conf: valueConfidence(n3, hasDigit) } : none;
    const uf = rest.length > 1 && UFS.has(rest[rest.length - 1]) ? rest.pop() : '';
    const city = rest.join(' ');
    if (city && uf) d.local_nascimento = { valor: `${city}, ${uf}`, conf };
    else if (city) d.local_nascimento = { valor: city, conf: conf * 0.6 };
  } else {
    d.data_nascimento = read('nascimento', normalizeDate, false, hasDigit);
  }

  // Identity document line: number, issuing body, state.
  const idp = below('identidade');
  let rgUf = '';
  d.rg = none;
  d.orgao_expedidor = none;
  if (idp.length) {
    const parsed = parseIdentity(idp.map((p) => p.text).join(' '));
    rgUf = parsed.uf;
    if (parsed.rg) d.rg = { valor: parsed.rg, conf: valueConfidence(idp, hasDigit), failed: !rgWidthFits(parsed.rg, idp, below('registro')) };
    if (parsed.orgao) d.orgao_expedidor = { valor: parsed.orgao, conf: valueConfidence(idp, isNameWord) };
    const known = (t: string): boolean => {
      const p = parseIdentity(t);
      return p.rg !== '' && isKnownIssuer(p.orgao);
    };
    if (idp.length === 1 && !known(idp[0].text)) suspects.push({ phrase: idp[0], accept: known });
  }

  // Parents: two lines (father, mother) or one (mother only).
  let filLines = below('filiacao', 2);
  const permissao = labels.get('permissao');
  if (!filLines.length && !labels.has('filiacao') && model === 'old' && permissao) {
    // Label unread: the parents are the (one or two) value lines above PERMISSÃO. The older card
    // leaves the parents' box's spare room under them: the mother's line ends 3-4.5 label heights
    // above PERMISSÃO (final part), hence PARENTS_ABOVE_PERMIT.
    filLines = valueAbove(permissao, phrases, labelPhrases, labelH, 2, PARENTS_ABOVE_PERMIT);
  }
  const cat = labels.get('categoria');
  if (!filLines.length && !labels.has('filiacao') && model === '2022' && cat) {
    // Label unread (2022 model): the parents are the last one or two value lines under the category row.
    filLines = linesUnderRow(cat, phrases, labelPhrases, labelH);
  }
  const fil = filLines.map((p) => ({ valor: normalizeName(p.text), conf: valueConfidence([p], isNameWord) * (labels.has('filiacao') ? 1 : 0.9) }));
  d.nome_pai = fil.length === 2 ? fil[0] : none;
  // One line read: the mother alone, or the father with the mother's line unread (seen on the tuning
  // part: the father's name returned as the mother's). Which one cannot be told, so the value is kept
  // but under the low-confidence line (0.75 x).
  d.nome_mae = fil.length === 2 ? fil[1] : fil.length === 1 ? { ...fil[0], conf: fil[0].conf * 0.75 } : none;

  // Issuing state: "DETRAN - UF"; the older model's front alone only shows the identity's state.
  // (The identity document itself may be issued by a DETRAN: its line is skipped.)
  const detranRe = /DETRAN\s*[-–—.]?\s*([A-Z]{2})\b/;
  const detranPhrase = phrases.find((p) => !idp.includes(p) && UFS.has(detranRe.exec(fold(p.text))?.[1] ?? ''));
  const idText = fold(idp.map((p) => p.text).join(' '));
  const detran = detranPhrase ? detranRe.exec(fold(detranPhrase.text)) : detranRe.exec(fold(fullText).replace(idText || '\u0000', ''));
  // The place of issue ("LOCAL: CITY, UF", issue side) is in the issuing state.
  const localPs = below('local');
  const localText = fold(single(localPs.map((p) => p.text).join(' ')));
  const localUf = /,\s*([A-Z]{2})$/.exec(localText)?.[1];
  if (detran && UFS.has(detran[1])) {
    d.uf = { valor: detran[1], conf: detranPhrase ? valueConfidence([detranPhrase], (w) => fold(w.text).replace(/[^A-Z]/g, '') === detran[1]) : 0.8 * 0.85 };
  } else if (localUf && UFS.has(localUf)) {
    // DETRAN line missed, place of issue read: its state, inferred, so kept under the low-confidence
    // line (capped at 0.75 after the checks).
    d.uf = { valor: localUf, conf: valueConfidence(localPs), cap: 0.75 };
  } else if (model === 'old' && rgUf) {
    // The older front alone shows only the identity's state. With the issue side in view (its labels
    // or notices read) the DETRAN line was missed, and the identity's state is only a guess (0.6 x).
    // ASSINATURA: both signature labels are printed on the issue side (printed-lines.ts gives back only
    // "ASSINATURA DO" of a signature line it whitened).
    const backSeen = labels.has('local') || labels.has('emissao') || /ASSINATURA|PORTADOR|TERRITORIO NACIONAL/.test(fold(fullText));
    d.uf = { valor: rgUf, conf: d.rg.conf * 0.9 * (backSeen ? 0.6 : 1) };
  } else {
    d.uf = none;
  }

  // Cross-check: the place of issue is in the issuing state; a UF that disagrees with it is kept
  // (either may be the misread one) but under the low-confidence line.
  if (d.uf.valor && localUf && UFS.has(localUf) && localUf !== d.uf.valor) d.uf = { ...d.uf, conf: d.uf.conf * 0.6 };

  applyFallbacks(d, `${fullText}\n${adjacentPairs(phrases).join('\n')}`, model, labels);
  restoreNames(d);
  return { model, campos: scoreFields(d), labelsFound: labels.size, suspects };
}

/**
 * The last one or two consecutive value lines left-aligned with `label`, from 1.5 to 8 label heights
 * under the value row that follows it (the 2022 model prints FILIAÇÃO and the parents there).
 */
function linesUnderRow(label: FoundLabel, phrases: Phrase[], labelPhrases: Set<Phrase>, labelH: number): Phrase[] {
  const L = label.phrase;
  const h = Math.max(4, labelH);
  const rowBottom = L.y1 + 3.5 * h;
  const cands = phrases
    .filter((p) => !labelPhrases.has(p) && p.h >= 1.2 * h && Math.abs(p.x0 - L.x0) < 3 * h && p.y0 > rowBottom && p.y0 < rowBottom + 8 * h)
    .filter((p) => p.words.reduce((s, w) => s + w.conf, 0) / p.words.length >= 0.5)
    .sort((a, b) => a.y0 - b.y0);
  if (!cands.length) return [];
  const last = cands[cands.length - 1];
  const prev = cands[cands.length - 2];
  return prev && last.y0 - prev.y1 < 1.0 * last.h ? [prev, last] : [last];
}

/**
 * Texts of phrase pairs that continue each other on one line (overlapping vertically, the second
 * starting at most 3 line heights after the first): a number split by the recogniser into two
 * boxes of different heights lands on two text lines of the reading order, but here on one.
 */
function adjacentPairs(phrases: Phrase[]): string[] {
  const out: string[] = [];
  for (const a of phrases) {
    for (const b of phrases) {
      if (a === b) continue;
      const gap = b.x0 - a.x1;
      const overlap = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
      if (gap > -0.5 * a.h && gap < 3 * Math.max(a.h, b.h) && overlap > 0.3 * Math.min(a.y1 - a.y0, b.y1 - b.y0)) out.push(`${a.text} ${b.text}`);
    }
  }
  return out;
}

/** Patterns over the full text for key fields whose label was not found. */
function applyFallbacks(d: Partial<Record<CnhFieldName, Draft>>, fullText: string, model: CnhModel, labels: Map<LabelId, FoundLabel>): void {
  const f = 0.85;
  if (!d.cpf?.valor) {
    const m = /(?<!\d)\d{3}[\s.,]{1,3}\d{3}[\s.,]{1,3}\d{3}\s?[-–]\s?\d{2}(?!\d)/.exec(fullText);
    if (m) d.cpf = { valor: normalizeCpf(m[0]), conf: 0.8 * f };
  }
  if (!d.numero_cnh?.valor) {
    const cpfDigits = digitsOf(d.cpf?.valor ?? '');
    const cands = [...fullText.matchAll(/(?<!\d)\d{11}(?!\d)/g)].map((m) => m[0]).filter((x) => x !== cpfDigits);
    const best = cands.find(isValidCnhNumber) ?? cands[0];
    if (best) d.numero_cnh = { valor: best, conf: 0.8 * f };
  }
  // Dates by their chronological role where labels were missed.
  const dateFields = ['data_nascimento', 'data_primeira_habilitacao', 'data_emissao', 'data_validade'] as const;
  const missing = dateFields.filter((k) => !d[k]?.valor && !(k === 'data_emissao' && model === 'old' && !labels.has('local')));
  if (missing.length) {
    const known = new Set(dateFields.map((k) => d[k]?.valor).filter(Boolean));
    const key = (s: string): string => s.split('/').reverse().join('');
    const rest = [...new Set(allDates(fullText))].filter((x) => !known.has(x)).sort((a, b) => key(a).localeCompare(key(b)));
    if (missing.length === 1 && rest.length === 1) d[missing[0]] = { valor: rest[0], conf: 0.7 * f };
    else if (rest.length) {
      if (missing.includes('data_nascimento')) d.data_nascimento = { valor: rest.shift() ?? '', conf: 0.6 * f };
      if (missing.includes('data_validade') && rest.length) d.data_validade = { valor: rest.pop() ?? '', conf: 0.6 * f };
    }
  }
}

/**
 * Confidence cap of a name in which the recogniser lost a diacritic that spelling requires (a word
 * put back by orthography.ts): the rules cover only some words (a lost acute or circumflex cannot be
 * told from a word written without one), so the rest of the value may have lost accents too.
 */
export const LOST_DIACRITIC_CAP = 0.7;

/**
 * Names and the birthplace's town with the diacritics Portuguese spelling requires put back
 * (orthography.ts restoreDiacritics); a value with a word put back ends with at most LOST_DIACRITIC_CAP
 * (applied after the checks, so a passed format check cannot lift it back over the line).
 */
export function restoreNames(d: Partial<Record<CnhFieldName, Draft>>): void {
  for (const k of ['nome_completo', 'nome_pai', 'nome_mae', 'local_nascimento'] as const) {
    const v = d[k];
    if (!v?.valor) continue;
    // The birthplace is "CITY, UF" (or a city alone): only the city's words are names.
    const [city, ...rest] = v.valor.split(',');
    const { name, restored } = restoreDiacritics(city);
    if (restored.length) d[k] = { valor: [name, ...rest].join(','), conf: v.conf, cap: LOST_DIACRITIC_CAP };
  }
  sameSpelling(d);
}

/**
 * A surname printed twice on one card (the holder's and a parent's) has one spelling: a word read
 * without diacritics in one name and with them in another lost them where it has none (the recogniser
 * drops accents far more often than it invents them). It takes the accented spelling and its name is
 * capped at LOST_DIACRITIC_CAP (the same line may have lost other accents; registries also spell a
 * surname differently now and then).
 */
function sameSpelling(d: Partial<Record<CnhFieldName, Draft>>): void {
  const keys = ['nome_completo', 'nome_pai', 'nome_mae'] as const;
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

/** Fields whose value is free text: a value that is the card's own print (boilerplate.ts) is dropped. */
const TEXT_FIELDS = new Set<CnhFieldName>(['nome_completo', 'nome_pai', 'nome_mae', 'local_nascimento', 'observacoes', 'orgao_expedidor']);
const NAME_RE = /^[A-ZÀ-ÖØ-Ý' -]+$/;
/**
 * A doubled vowel inside a name word: Portuguese spelling has almost none (AARÃO, ISAAC are rare),
 * while a space the recogniser missed after a particle makes one ("DA ANDRADE" -> "DAANDRADE").
 */
const GLUED_VOWELS = /(AA|EE|II|OO|UU)/;
/**
 * Q not followed by U and a vowel: Portuguese spelling writes Q only in QU + vowel (QUEIROZ, QUARESMA;
 * Formulário Ortográfico de 1943, letters), so such a word was cut short or misread (MARQUES read
 * MARQU).
 */
const BAD_Q = /Q(?![UÜ][AEIOUÁÉÍÓÚÂÊÔÃÕ])/;

/**
 * Each field's own check where it has one (undefined: no opinion): CPF and CNH number check digits,
 * category in the allowed set, UF among the 27, birthplace "CITY, UF", identity number shape, issuing
 * body known, remarks made of codes (REMARK_CODES), names of two words or more in capitals without a
 * doubled vowel (GLUED_VOWELS) nor a Q outside QU + vowel (BAD_Q), not ending in a particle (TRAILING_PARTICLE). Date order is checked across fields by `scoreFields`.
 */
export function fieldCheck(k: CnhFieldName, valor: string): boolean | undefined {
  switch (k) {
    case 'cpf': return isValidCpf(valor);
    case 'numero_cnh': return isValidCnhNumber(valor);
    case 'categoria': return CATEGORY_SET.has(valor);
    case 'uf': return UFS.has(valor);
    case 'local_nascimento': {
      const m = /^([A-ZÀ-ÖØ-Ý' -]+), ([A-Z]{2})$/.exec(valor);
      return m !== null && UFS.has(m[2]);
    }
    case 'rg': return /^\d{4,14}X?$/.test(valor);
    // Remarks are restriction codes (one letter) and EAR: anything else was misread ("FARA").
    case 'observacoes': return REMARK_CODES.test(valor) ? undefined : false;
    case 'orgao_expedidor': return isKnownIssuer(valor) ? true : /^[A-Z]{2,12}$/.test(valor) ? undefined : false;
    case 'nome_completo':
    case 'nome_pai':
    case 'nome_mae':
      return NAME_RE.test(valor) && valor.split(' ').filter((t) => t.length > 1).length >= 2 && !GLUED_VOWELS.test(valor) && !BAD_Q.test(valor) && !TRAILING_PARTICLE.test(valor) ? undefined : false;
    default: return undefined;
  }
}

/**
 * Drafts -> `campos` with validity flags and validation-adjusted confidences (0..1, 3 decimals): each
 * field's own check (fieldCheck) and the date order (validateDates: birth < first licence <= issue <
 * expiry) raise or lower the recogniser's confidence (withValidation: a failed check caps it at 0.6);
 * free-text values that are the card's own print (headers, labels) are dropped.
 */
export function scoreFields(d: Partial<Record<CnhFieldName, Draft>>): Record<CnhFieldName, CnhField> {
  for (const k of TEXT_FIELDS) if (d[k]?.valor && isBoilerplate(d[k].valor)) d[k] = none;
  const get = (k: CnhFieldName): Draft => d[k] ?? none;
  const dates = validateDates({
    data_nascimento: get('data_nascimento').valor,
    data_primeira_habilitacao: get('data_primeira_habilitacao').valor,
    data_emissao: get('data_emissao').valor,
    data_validade: get('data_validade').valor,
  });
  const out = {} as Record<CnhFieldName, CnhField>;
  const r3 = (x: number): number => Math.round(Math.max(0, Math.min(1, x)) * 1000) / 1000;
  for (const k of CNH_FIELD_NAMES) {
    const { valor, conf, cap, failed } = get(k);
    let check: boolean | undefined;
    const field: CnhField = { valor, confianca: 0 };
    if (k === 'cpf') field.valido = check = valor ? isValidCpf(valor) : false;
    if (k in dates) field.valida = check = valor ? dates[k as keyof typeof dates] : false;
    if (check === undefined && valor) check = fieldCheck(k, valor);
    if (failed) check = false;
    field.confianca = valor ? r3(Math.min(withValidation(conf, check), cap ?? 1)) : 0;
    out[k] = field;
  }
  return out;
}
