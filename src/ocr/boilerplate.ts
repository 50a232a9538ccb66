/**
 * Printed text of the card that is never a field's value: headers ("REPÚBLICA FEDERATIVA DO BRASIL",
 * "CARTEIRA NACIONAL DE HABILITAÇÃO", ministries, "DRIVER LICENSE"), the field labels of both models,
 * signature lines and the validity notice, and an application form's labels around a card lying on
 * one. A candidate value made mostly of these words (fuzzy: the recogniser's misreadings of them
 * count) is refused by fields.ts instead of being returned.
 */
import { isKnownIssuer, UFS } from './normalize.js';
import { editDistance, fold } from './words.js';

/** Words of the card's fixed print (folded: uppercase, no accents). Short function words are not listed. */
const VOCABULARY = [
  // headers
  'REPUBLICA', 'FEDERATIVA', 'BRASIL', 'CARTEIRA', 'NACIONAL', 'HABILITACAO', 'MINISTERIO', 'CIDADES', 'TRANSPORTES',
  'INFRAESTRUTURA', 'DEPARTAMENTO', 'TRANSITO', 'SECRETARIA', 'DENATRAN', 'SENATRAN', 'CONTRAN', 'DRIVER', 'LICENSE',
  'PERMISO', 'CONDUCCION', 'RENACH', 'ESPELHO',
  // labels
  'NOME', 'SOBRENOME', 'NASCIMENTO', 'LOCAL', 'DATA', 'EMISSAO', 'VALIDADE', 'IDENTIDADE', 'EMISSOR', 'ORGAO', 'DOC',
  'CPF', 'REGISTRO', 'CATEGORIA', 'HAB', 'FILIACAO', 'OBSERVACOES', 'PERMISSAO', 'ACC', 'ORG',
  // notices and signature lines
  'ASSINATURA', 'PORTADOR', 'VALIDA', 'TODO', 'TERRITORIO', 'DOCUMENTO', 'ELETRONICO', 'DIGITAL', 'QRCODE',
  // an application form's print around a card photographed lying on it (a DETRAN's requerimento: the
  // applicant's address, town and telephone, the category applied for)
  'REQUERENTE', 'REQUERIMENTO', 'ENDERECO', 'MUNICIPIO', 'TELEFONE', 'PRETENDIDA', 'FORMULARIO', 'SOLICITACAO', 'PROTOCOLO',
];
const WORDS = new Set(VOCABULARY);

/** Fewest letters of a vocabulary word's start that stand for it when a value's last word was cut (isBoilerplate). */
const CUT_PREFIX = 4;

/** True when `token` (folded) is a vocabulary word or, from 6 letters, within edit distance 1 (2 from 9) of one. */
function isVocabulary(token: string): boolean {
  if (WORDS.has(token)) return true;
  if (token.length < 6) return false;
  const tol = token.length >= 9 ? 2 : 1;
  return VOCABULARY.some((w) => w.length >= 6 && Math.abs(w.length - token.length) <= tol && editDistance(w, token) <= tol);
}

/**
 * True when `value` is the card's own print rather than a person's data: at least two of its words
 * of three letters or more are card vocabulary and they make at least 60% of such words (a name such
 * as "MARIA DO BRASIL SOUZA" keeps one vocabulary word among three and passes), or it is one such word
 * of four letters or more. `place`: the value is a birthplace ("TOWN, UF"), whose one word counts only
 * when it is a vocabulary word exactly: a town can be within the fuzzy match's edits of one (PROMISSÃO,
 * SP is 2 edits from PERMISSÃO: final27 #38, #54 lost their birthplace to it).
 */
export function isBoilerplate(value: string, place = false): boolean {
  const tokens = fold(value).split(/[^A-Z0-9]+/).filter((t) => t.length >= 3);
  if (!tokens.length) return false;
  // The last word may be a vocabulary word cut at the reading's edge ("ORGÃO EMIS", final14 #75: the
  // label ÓRGÃO EMISSOR read as the name): its first CUT_PREFIX letters or more of a word of 7 or more.
  const last = tokens[tokens.length - 1];
  const cut = tokens.length > 1 && last.length >= CUT_PREFIX && !isVocabulary(last) && VOCABULARY.some((w) => w.length >= 7 && w.startsWith(last));
  const hits = tokens.filter(isVocabulary).length + (cut ? 1 : 0);
  return (hits >= 2 && hits / tokens.length >= 0.6) || (tokens.length === 1 && hits === 1 && tokens[0].length >= 4 && (!place || WORDS.has(tokens[0])));
}

/**
 * True when a name's value is made only of the card's own print and the identity line's codes: every word
 * a vocabulary word (isVocabulary), a known issuing body (normalize.ts ISSUERS: SSP, SESP, DETRAN...) or a
 * state (UFS: SE, SP...), and at least one of three letters or more a vocabulary word or a body ("SESP SE",
 * final24 #77 at 0.93: the identity line's body and state, its number dropped by the name's
 * normalisation, taken for the holder's name). isBoilerplate misses such a value: it counts only words of
 * three letters or more, and two-letter states are the value's other half. `valor`: a name as normalised.
 * Why it should hold on unseen data: a person's name is never an issuing body's acronym -- a body is an
 * office (Secretaria de Segurança Pública...), written in capitals with no vowel pattern of a name -- and
 * a state's two letters alone are no name word a CNH prints (a name is printed whole); the set of bodies
 * and states is the card's, not a part's.
 */
export function cardWordsOnly(valor: string): boolean {
  const words = fold(valor).split(/[^A-Z]+/).filter(Boolean);
  const card = (w: string): boolean => isVocabulary(w) || isKnownIssuer(w);
  return words.length > 0 && words.every((w) => card(w) || UFS.has(w)) && words.some((w) => w.length >= 3 && card(w));
}
