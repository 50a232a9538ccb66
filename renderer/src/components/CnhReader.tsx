import { useEffect, useRef, useState } from 'react';
import { grabBlob, startCamera, stopCamera } from '../../capture/index.js';
import { api, type OcrResult } from '../api.js';
import { confidenceBand } from '../cnh-bands.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { Busy, ErrorNotice, Notice, useAction } from './ui.js';

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
 * CNH reading: a file (JPG/PNG/PDF up to 20 MB) or a camera photo goes to the OCR endpoint; every
 * field is shown with its confidence coloured by band and its validity flag, and can be corrected.
 * `onRead` receives the (edited) values.
 */
export function CnhReader({ onRead }: { onRead?: (values: Record<string, string>) => void }) {
  const { t, lang } = useI18n();
  const [result, setResult] = useState<OcrResult | null>(null);
  const [values, setValues] = useState<Record<string, string>>({});
  const [camera, setCamera] = useState(false);
  const [localError, setLocalError] = useState<string | null>(null);
  const video = useRef<HTMLVideoElement>(null);
  const read = useAction(async (blob: Blob, name: string) => {
    const r = await api.readCnh(blob, name);
    setResult(r);
    const v = Object.fromEntries(Object.entries(r.campos).map(([k, f]) => [k, f.valor]));
    setValues(v);
    onRead?.(v);
  });

  useEffect(() => {
    if (!camera) return;
    let stream: MediaStream | null = null;
    void startCamera(video.current!, { width: 1920, height: 1080 }).then((s) => (stream = s), () => setCamera(false));
    return () => stopCamera(stream);
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
    const next = { ...values, [field]: v };
    setValues(next);
    onRead?.(next);
  };

  return (
    <div className="cnh">
      <div className="row">
        <label className="btn btn-primary file-btn">
          {t('doc.file')}
          <input type="file" accept="image/jpeg,image/png,application/pdf" onChange={(e) => pick(e.target.files?.[0])} data-testid="cnh-file" />
        </label>
        {!camera ? (
          <button type="button" className="btn" onClick={() => setCamera(true)}>{t('doc.camera')}</button>
        ) : (
          <button type="button" className="btn btn-primary" onClick={() => void snap()}>{t('face.capture')}</button>
        )}
      </div>
      {camera && <video ref={video} className="doc-video" muted playsInline />}
      {localError && <Notice kind="error" title={localError} />}
      {read.busy && <Busy />}
      <ErrorNotice error={read.error} />
      {result && (
        <>
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
                    <td className="value">
                      <input id={`cnh-input-${f}`} value={values[f] ?? ''} onChange={(e) => edit(f, e.target.value)} />
                      {validity !== undefined && (
                        <span className={`badge ${validity ? 'ok' : 'bad'}`}>
                          {t(isDate ? (validity ? 'doc.validDate' : 'doc.invalidDate') : validity ? 'doc.valid' : 'doc.invalid')}
                        </span>
                      )}
                      {edited && <span className="badge edited" data-testid={`cnh-edited-${f}`}>{t('doc.edited')}</span>}
                    </td>
                    <td>
                      <span className={`conf band-${band}`}>{(field.confianca * 100).toFixed(0)}% · {t(`doc.band.${band}` as MessageKey)}</span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
