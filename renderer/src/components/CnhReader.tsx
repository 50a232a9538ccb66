import { useEffect, useRef, useState } from 'react';
import { CaptureError, grabBlob, startCamera, stopCamera, type CaptureErrorCode } from '../../capture/index.js';
import { api, type OcrResult } from '../api.js';
import { confidenceBand } from '../cnh-bands.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { CameraProblem } from './CameraProblem.js';
import { Busy, ErrorNotice, Notice, confidenceWord, useAction } from './ui.js';

/** A CNH read: the OCR response, the clerk's (possibly corrected) values and the card image. */
export interface CnhRead {
  result: OcrResult;
  values: Record<string, string>;
  /** Object URL of the card image (JPG/PNG or camera photo); null for a PDF. */
  imageUrl: string | null;
  fileName: string;
  /** The selfie (base64) the card photo was compared with, if any. */
  selfie: string | null;
}

/** The order in which the CNH fields are shown (the spec's table). */
export const CNH_FIELDS = [
  'nome_completo', 'cpf', 'rg', 'data_nascimento', 'numero_cnh', 'categoria', 'data_validade', 'data_emissao',
  'data_primeira_habilitacao', 'local_nascimento', 'nome_pai', 'nome_mae', 'uf', 'observacoes', 'orgao_expedidor',
] as const;

const FIELD_LABELS: Record<string, [string, string]> = {
  nome_completo: ['Nome completo', 'Full name'],
  cpf: ['CPF', 'CPF (taxpayer no.)'],
  rg: ['RG', 'Identity card (RG)'],
  data_nascimento: ['Data de nascimento', 'Birth date'],
  numero_cnh: ['Nº de registro da CNH', 'Licence number'],
  categoria: ['Categoria', 'Category'],
  data_validade: ['Validade', 'Expiry date'],
  data_emissao: ['Data de emissão', 'Issue date'],
  data_primeira_habilitacao: ['1ª habilitação', 'First licence'],
  local_nascimento: ['Local de nascimento', 'Place of birth'],
  nome_pai: ['Nome do pai', "Father's name"],
  nome_mae: ['Nome da mãe', "Mother's name"],
  uf: ['UF', 'State'],
  observacoes: ['Observações', 'Remarks'],
  orgao_expedidor: ['Órgão expedidor', 'Issuing body'],
};


const MAX_BYTES = 20 * 1024 * 1024;
const TYPES = ['image/jpeg', 'image/png', 'application/pdf'];

/**
 * CNH reading: a file (JPG/PNG/PDF up to 20 MB) or a camera photo goes to the OCR endpoint; the
 * card image is shown beside every field, each with its confidence coloured by band and its
 * validity flag, and can be corrected. Controlled when `value`/`onChange` are given (the enrollment
 * keeps the read across steps and records it), otherwise it keeps its own state.
 */
export function CnhReader({ value, onChange, selfie }: { value?: CnhRead | null; onChange?: (v: CnhRead | null) => void; selfie?: string | null }) {
  const { t, lang } = useI18n();
  const [own, setOwn] = useState<CnhRead | null>(null);
  const read_ = value !== undefined ? value : own;
  const setRead = (v: CnhRead | null) => (onChange ? onChange(v) : setOwn(v));
  const result = read_?.result ?? null;
  const values = read_?.values ?? {};
  const [camera, setCamera] = useState(false);
  /** The card image shown large (full width above the fields) after a tap on it. */
  const [cardLarge, setCardLarge] = useState(false);
  const [cameraError, setCameraError] = useState<CaptureErrorCode | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const read = useAction(async (blob: Blob, name: string) => {
    const r = await api.readCnh(blob, name, selfie ?? undefined);
    const v = Object.fromEntries(Object.entries(r.campos).map(([k, f]) => [k, f.valor]));
    const imageUrl = blob.type === 'application/pdf' ? null : URL.createObjectURL(blob);
    setRead({ result: r, values: v, imageUrl, fileName: name, selfie: selfie ?? null });
  });

  useEffect(() => {
    if (!camera) return;
    let stream: MediaStream | null = null;
    let cancelled = false;
    void startCamera(video.current!, { width: 1920, height: 1080 }).then(
      (s) => {
        stream = s;
        if (cancelled) stopCamera(s);
      },
      (e: unknown) => {
        setCameraError(e instanceof CaptureError ? e.code : 'NO_CAMERA');
        setCamera(false);
      },
    );
    return () => {
      cancelled = true;
      stopCamera(stream);
    };
  }, [camera]);

  const pick = (file: File | undefined) => {
    setLocalError(null);
    if (!file) return;
    if (!TYPES.includes(file.type)) return setLocalError(t('doc.badType'));
    if (file.size > MAX_BYTES) return setLocalError(t('doc.tooBig'));
    void read.run(file, file.name);
  };
  const snap = async () => {
    const blob = await grabBlob(video.current!);
    setCamera(false);
    void read.run(blob, 'cnh-camera.jpg');
  };
  const edit = (field: string, v: string) => {
    if (read_) setRead({ ...read_, values: { ...values, [field]: v } });
  };

  return (
    <div className="cnh">
      <div className="row">
        <label className="btn btn-primary file-btn">
          {t('doc.file')}
          <input type="file" accept="image/jpeg,image/png,application/pdf" onChange={(e) => pick(e.target.files?.[0])} data-testid="cnh-file" />
        </label>
        {!camera ? (
          <button type="button" className="btn" onClick={() => { setCameraError(null); setCamera(true); }} data-testid="cnh-camera">{t('doc.camera')}</button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => void snap()}>{t('face.capture')}</button>
        )}
      </div>
      {cameraError && <CameraProblem code={cameraError} testId="cnh-camera-error" />}
      {camera && <video ref={video} className="doc-video" muted playsInline />}
      {localError && <Notice kind="error" title={localError} />}
      {read.busy && <Busy />}
      <ErrorNotice error={read.error} />
      {result && (
        <div className={`cnh-read${cardLarge ? ' card-large' : ''}`}>
          <figure className="cnh-card">
            {read_?.imageUrl ? (
              <button type="button" className="cnh-zoom" onClick={() => setCardLarge((v) => !v)} aria-pressed={cardLarge} data-testid="cnh-zoom">
                <img src={read_.imageUrl} alt={t('doc.cardImage')} data-testid="cnh-image" />
              </button>
            ) : (
              <div className="cnh-pdf" data-testid="cnh-image-pdf">PDF · {read_?.fileName}</div>
            )}
            <figcaption className="muted">{t('doc.cardImage')}{read_?.imageUrl ? ` · ${t(cardLarge ? 'doc.zoomOut' : 'doc.zoomIn')}` : ''}</figcaption>
            {read_ && <PhotoCheck read={read_} selfie={selfie ?? null} />}
          </figure>
          <div className="cnh-data">
          <p className="meta" data-testid="cnh-meta">
            {result.documento_tipo} · {t('doc.quality')}: <b>{result.metadados.qualidade_imagem}</b> · {t('doc.mean')}:{' '}
            <b>{(result.metadados.confianca_media_ocr * 100).toFixed(0)}%</b> · {t('doc.time')}: {result.metadados.tempo_processamento.toFixed(1)} s
          </p>
          <table className="cnh-fields" data-testid="cnh-fields">
            <thead>
              <tr><th>{t('doc.field')}</th><th>{t('doc.value')}</th><th>{t('doc.confidence')}</th></tr>
            </thead>
            <tbody>
              {CNH_FIELDS.filter((f) => result.campos[f]).map((f) => {
                const field = result.campos[f]!;
                const band = confidenceBand(field.confianca);
                const validity = field.valido ?? field.valida;
                const isDate = field.valida !== undefined;
                const edited = (values[f] ?? '') !== field.valor;
                return (
                  <tr key={f} className={`band-${band}`} data-testid={`cnh-${f}`}>
                    <th scope="row"><label htmlFor={`cnh-input-${f}`}>{FIELD_LABELS[f]![lang === 'en' ? 1 : 0]}</label></th>
                    <td className="value"><div className="value-cell">
                      <input id={`cnh-input-${f}`} value={values[f] ?? ''} onChange={(e) => edit(f, e.target.value)} />
                      {validity !== undefined && (
                        <span className={`badge ${validity ? 'ok' : 'bad'}`}>
                          {t(isDate ? (validity ? 'doc.validDate' : 'doc.invalidDate') : validity ? 'doc.valid' : 'doc.invalid')}
                        </span>
                      )}
                      {edited && <span className="badge edited" data-testid={`cnh-edited-${f}`}>{t('doc.edited')}</span>}
                    </div></td>
                    <td>
                      <span className={`conf band-${band}`}>{(field.confianca * 100).toFixed(0)}% · {t(`doc.band.${band}` as MessageKey)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          </div>
        </div>
      )}
    </div>
  );
}

/**
 * The card photo against the live face, in plain words: match (with a confidence word), no match,
 * no photo found, or why it could not be compared. Shown only for the selfie the read was made with.
 */
export function PhotoCheck({ read, selfie }: { read: CnhRead; selfie: string | null }) {
  const { t, errorText } = useI18n();
  const face = read.result.face;
  if (!face) return null;
  if (!face.found) return <p className="warn-text" data-testid="cnh-photo" data-photo="none">{t('doc.photo.none')}</p>;
  const c = face.comparison;
  if (!c || !read.selfie) return <p className="muted" data-testid="cnh-photo" data-photo="found">{t('doc.photo.found')}</p>;
  if (read.selfie !== selfie) return <p className="warn-text" data-testid="cnh-photo" data-photo="stale">{t('doc.photo.stale')}</p>;
  if (c.error) return <p className="warn-text" data-testid="cnh-photo" data-photo="error">{t('doc.photo.error', { why: errorText(c.error) ?? t('error.generic') })}</p>;
  const word = confidenceWord(c.score, c.threshold, !!c.matched, 'cosine');
  return c.matched ? (
    <p className="ok-text" data-testid="cnh-photo" data-photo="match">✓ {t('doc.photo.match')}{word ? ` (${t('result.confidence').toLowerCase()} ${t(`result.confidence.${word}`)})` : ''}</p>
  ) : (
    <p className="bad-text" data-testid="cnh-photo" data-photo="nomatch">✗ {t('doc.photo.noMatch')}</p>
  );
}
