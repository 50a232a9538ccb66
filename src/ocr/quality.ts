/**
 * Image quality of the document crop from three measurements, each graded against documented limits:
 *
 * | measure | how | excelente | boa | regular | below: ruim |
 * |---|---|---|---|---|---|
 * | resolution | short side of the card crop in the input, px | >= 780 | >= 600 | >= 420 | < 420 |
 * | sharpness | mean absolute Laplacian at strong edges (gray 0-255, 3x3 kernel, after scaling to 820 px card height) | >= 55 | >= 38 | >= 24 | < 24 |
 * | contrast | paper minus ink: most frequent gray level minus the 0.5th percentile | >= 150 | >= 110 | >= 70 | < 70 |
 *
 * The grade is the worst of the three. Limits were set on the synthetic benchmark: clean renders grade
 * excelente; the spec's recommended 1200x800 capture gives a short side of about 800 px.
 */
import { editDistance } from './words.js';

export type QualityGrade = 'excelente' | 'boa' | 'regular' | 'ruim';

export interface QualityMetrics {
  grade: QualityGrade;
  resolutionPx: number;
  sharpness: number;
  contrast: number;
}

const GRADES: QualityGrade[] = ['excelente', 'boa', 'regular', 'ruim'];
const LIMITS = {
  resolutionPx: [780, 600, 420],
  sharpness: [55, 38, 24],
  contrast: [150, 110, 70],
} as const;

const level = (v: number, limits: readonly number[]): number => {
  const i = limits.findIndex((l) => v >= l);
  return i < 0 ? 3 : i;
};

/**
 * Measures an 8-bit gray image (`w` x `h`, row-major) whose source crop had a short side of
 * `sourceShortSidePx`. Sharpness: mean |Laplacian| over the 2% strongest responses, which follows edge
 * steepness (blur lowers it) and is little moved by sensor noise spread over flat areas.
 */
export async function measureQuality(data: Uint8Array, w: number, h: number, sourceShortSidePx: number): Promise<QualityMetrics> {
  // One pass over the pixels for both histograms (integer counts; indexed loops: a for-of over a
  // typed array cost more than the arithmetic). Row 0 and the last row feed the level histogram only.
  const hist = new Uint32Array(256);
  const lapHist = new Uint32Array(1021);
  for (let x = 0; x < w; x++) hist[data[x]]++;
  for (let y = 1; y < h - 1; y++) {
    const row = y * w;
    hist[data[row]]++;
    for (let i = row + 1, end = row + w - 1; i < end; i++) {
      const c = data[i];
      hist[c]++;
      const l = 4 * c - data[i - 1] - data[i + 1] - data[i - w] - data[i + w];
      lapHist[l < 0 ? -l : l]++;
    }
    if (w > 1) hist[data[row + w - 1]]++;
  }
  if (h > 1) for (let x = (h - 1) * w; x < h * w; x++) hist[data[x]]++;
  const n = Math.max(0, w - 2) * Math.max(0, h - 2);
  const pct = (p: number): number => {
    let acc = 0;
    for (let i = 0; i < 256; i++) { acc += hist[i]; if (acc >= p * data.length) return i; }
    return 255;
  };
  let mode = 0;
  for (let i = 1; i < 256; i++) if (hist[i] > hist[mode]) mode = i;
  const contrast = Math.max(0, mode - pct(0.005));
  // Mean of the top 2% Laplacian magnitudes.
  let need = Math.max(1, Math.round(n * 0.02)), sum = 0, cnt = 0;
  for (let v = 1020; v >= 0 && need > 0; v--) {
    const take = Math.min(need, lapHist[v]);
    sum += take * v; cnt += take; need -= take;
  }
  const sharpness = cnt ? sum / cnt : 0;
  const worst = Math.max(level(sourceShortSidePx, LIMITS.resolutionPx), level(sharpness, LIMITS.sharpness), level(contrast, LIMITS.contrast));
  return { grade: GRADES[worst], resolutionPx: Math.round(sourceShortSidePx), sharpness: Math.round(sharpness * 10) / 10, contrast };
}

/**
 * Fields a CNH shows on either side and either model, used to grade what was read: every one should be
 * there on any CNH image (the identity side), so each one missing says the reading failed somewhere.
 */
export const CORE_FIELDS = [
  'nome_completo', 'cpf', 'data_nascimento', 'numero_cnh', 'categoria', 'data_validade', 'data_primeira_habilitacao', 'rg', 'nome_mae', 'uf',
] as const;

/**
 * Grade of what was read (the image can be sharp and the reading still poor): over CORE_FIELDS, a
 * missing value counts 1 and a value under `lowConfidence` counts 0.5; 0 -> excelente, up to 1 -> boa,
 * up to 3 -> regular, more -> ruim. `qualidade_imagem` is the worse of this and the image's grade.
 */
export function readingGrade(campos: Record<string, { valor: string; confianca: number }>, lowConfidence: number): QualityGrade {
  let misses = 0;
  for (const k of CORE_FIELDS) {
    const f = campos[k];
    if (!f?.valor) misses += 1;
    else if (f.confianca < lowConfidence) misses += 0.5;
  }
  return misses === 0 ? 'excelente' : misses <= 1 ? 'boa' : misses <= 3 ? 'regular' : 'ruim';
}

/** The worse of two grades. */
export const worseGrade = (a: QualityGrade, b: QualityGrade): QualityGrade => GRADES[Math.max(GRADES.indexOf(a), GRADES.indexOf(b))];

/**
 * Whether a read shows a CNH: evidence is the count of CNH labels found (layout.ts) plus 2 for the
 * card's own words (HABILITAÇÃO, DETRAN, RENACH) in the text; a document with evidence under 3 and
 * fewer than 4 CORE_FIELDS read is not taken for a CNH (a blank page, a face photo, another document),
 * unless its text shows the card's title (showsCnhTitle).
 */
export function looksLikeCnh(labelsFound: number, foldedText: string, campos: Record<string, { valor: string }>): boolean {
  const evidence = labelsFound + (/HABILITA|DETRAN|RENACH/.test(foldedText) ? 2 : 0);
  const core = CORE_FIELDS.filter((k) => campos[k]?.valor).length;
  return evidence >= 3 || core >= 4 || showsCnhTitle(foldedText);
}

/** Letters each word of the title may be misread by and still count (of CARTEIRA, NACIONAL and HABILITA). */
const TITLE_SLACK = 2;

/**
 * Whether the folded text `foldedText` (words.ts fold) shows the card's title, CARTEIRA NACIONAL DE
 * HABILITAÇÃO: three words in a row within TITLE_SLACK letters of CARTEIRA, NACIONAL and HABILITA (the
 * first eight letters of HABILITAÇÃO), with a word of one or two letters between them or not (DE, or DE
 * misread: "OE"). Every CNH of either model prints it in
 * its header in type larger than the labels', and no other document does; so it still reads where an
 * effect took the small label type that labels are found by (final23 #24, a phone's median smear: no
 * label read, "CARTEIRA NACIONAL DE HABILITAÇÃO" and the values read, every field dropped as not a CNH).
 */
export function showsCnhTitle(foldedText: string): boolean {
  const words = foldedText.split(/[^A-Z]+/).filter(Boolean);
  const near = (w: string | undefined, target: string): boolean => w !== undefined && editDistance(w.slice(0, target.length + TITLE_SLACK), target) <= TITLE_SLACK;
  for (let i = 0; i + 2 < words.length; i++) {
    if (!near(words[i], 'CARTEIRA') || !near(words[i + 1], 'NACIONAL')) continue;
    const j = words[i + 2].length <= 2 ? i + 3 : i + 2;
    if (words[j] !== undefined && editDistance(words[j].slice(0, 8), 'HABILITA') <= TITLE_SLACK) return true;
  }
  return false;
}
