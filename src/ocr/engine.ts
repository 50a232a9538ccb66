/**
 * Contract between the OCR route and the CNH reader. The reader is a pure function of the file
 * bytes and its loaded recogniser pool.
 */

export interface CnhField {
  valor: string;
  confianca: number;
  /** Only on cpf. */
  valido?: boolean;
  /** Only on date fields. */
  valida?: boolean;
}

export const CNH_FIELD_NAMES = [
  'nome_completo', 'cpf', 'rg', 'data_nascimento', 'numero_cnh', 'categoria', 'data_validade',
  'data_emissao', 'data_primeira_habilitacao', 'local_nascimento', 'nome_pai', 'nome_mae', 'uf',
  'observacoes', 'orgao_expedidor',
] as const;
export type CnhFieldName = (typeof CNH_FIELD_NAMES)[number];
/** The fields that hold a person's name (the holder's and the parents'). */
export const NAME_FIELDS = ['nome_completo', 'nome_pai', 'nome_mae'] as const satisfies readonly CnhFieldName[];

/** `motivo` of a document that is not read as a CNH (documento_tipo DESCONHECIDO). */
export const NOT_A_CNH = 'DOCUMENTO_NAO_RECONHECIDO';

export interface CnhReadResult {
  /**
   * CNH, or DESCONHECIDO when the document shows too little of a CNH (see quality.ts `looksLikeCnh`:
   * blank pages, photos, other documents); every field is then empty and `motivo` says why.
   */
  documento_tipo: 'CNH' | 'DESCONHECIDO';
  /** Set with documento_tipo DESCONHECIDO: NOT_A_CNH. */
  motivo?: typeof NOT_A_CNH;
  campos: Record<CnhFieldName, CnhField>;
  qualidade_imagem: 'excelente' | 'boa' | 'regular' | 'ruim';
  /**
   * The text read, in reading order. The card's fixed print that printed-lines.ts knows by its shape
   * (header stack, validity notice, signature labels) is whitened before recognition and appears here
   * as printed, except words another printing of the same widths may hold (DEPARTAMENTO, PORTADOR /
   * EMISSOR), which are left out rather than guessed.
   */
  texto_completo_ocr: string;
  /** MIME type sniffed from the bytes (for `metadados.tipo_arquivo`). */
  tipo_arquivo: 'image/jpeg' | 'image/png' | 'application/pdf';
  /** Card layout recognised: the 2022 model (numbered fields) or the older model. */
  modelo: 'CNH_2022' | 'CNH_ANTERIOR';
  /** Where the text came from: the recogniser, or a PDF's text layer (every page had one). */
  origem_texto: 'ocr' | 'pdf_texto';
}

/**
 * Thrown (as OcrError) for the spec's OCR error table, plus two refusals of the input itself (HTTP 400
 * with a stable `code`, documented in the OpenAPI): INVALID_DOCUMENT (the bytes carry a JPEG/PNG/PDF
 * signature but cannot be decoded) and DOCUMENT_TOO_COMPLEX (decoding or rendering would exceed the
 * per-request budget of time, pixels or memory, see budget.ts; the work was cancelled).
 * PROCESSING_FAILED stays for faults of the station itself (HTTP 500).
 */
export type OcrErrorKind = 'UNSUPPORTED_TYPE' | 'UNAVAILABLE' | 'PROCESSING_FAILED' | 'INVALID_DOCUMENT' | 'DOCUMENT_TOO_COMPLEX';

export class OcrError extends Error {
  constructor(readonly kind: OcrErrorKind, message: string) {
    super(message);
    this.name = 'OcrError';
  }
}

export interface CnhReader {
  /**
   * File bytes (JPEG, PNG or PDF, type sniffed from the bytes) -> fields.
   * Throws OcrError UNSUPPORTED_TYPE, UNAVAILABLE (pool not started or saturated), PROCESSING_FAILED.
   */
  read(file: Uint8Array): Promise<CnhReadResult>;
  close(): Promise<void>;
}
