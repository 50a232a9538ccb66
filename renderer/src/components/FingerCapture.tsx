import { useState } from 'react';
import { estimateFingerQuality, fileToBase64, type FingerQuality } from '../../capture/index.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { ReaderFailure, readerClient } from '../readers.js';
import { Busy, Notice } from './ui.js';
import { useReaders } from './useReaders.js';

/** One captured fingerprint image. */
export interface FingerImage {
  base64: string;
  dataUrl: string;
  quality: FingerQuality;
  source: string;
  /** Resolution the reader reported with the image; undefined for an uploaded file (unknown). */
  dpi?: number;
}

/**
 * Fingerprint capture from a reader (live: attach/detach, capture progress) or from an uploaded
 * image, with an estimated quality per image, retry, and several fingers when `max` > 1.
 */
export function FingerCapture({ value, onChange, max = 10, testId = 'finger' }: { value: FingerImage[]; onChange: (v: FingerImage[]) => void; max?: number; testId?: string }) {
  const { t } = useI18n();
  const { readers, capturing, rescan } = useReaders();
  const [readerId, setReaderId] = useState<string>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const selected = readers.find((r) => r.id === readerId) ?? readers[0];

  const add = async (base64: string, dataUrl: string, source: string, dpi?: number) => {
    const { quality } = await estimateFingerQuality(dataUrl).catch(() => ({ quality: 'fair' as FingerQuality }));
    const item: FingerImage = dpi === undefined ? { base64, dataUrl, quality, source } : { base64, dataUrl, quality, source, dpi };
    onChange(max === 1 ? [item] : [...value, item].slice(0, max));
  };
  const fromReader = async () => {
    if (!selected) return;
    setBusy(true);
    setError(null);
    try {
      const shot = await readerClient().capture(selected.id);
      await add(shot.imageData, `data:${shot.mime};base64,${shot.imageData}`, selected.name, shot.dpi);
    } catch (e) {
      const code = e instanceof ReaderFailure ? e.code : 'IO';
      const known = ['NOT_FOUND', 'UNREACHABLE', 'BUSY', 'TIMEOUT', 'NO_IMAGE'].includes(code);
      setError(t(`reader.${known ? code : 'IO'}` as MessageKey, { name: selected.name }));
      rescan();
    } finally {
      setBusy(false);
    }
  };
  const fromFile = async (file: File | undefined) => {
    if (!file) return;
    const { base64, dataUrl } = await fileToBase64(file);
    await add(base64, dataUrl, file.name);
  };
  const full = value.length >= max && max > 1;

  return (
    <div className="capture">
      <div className="row">
        {readers.length > 0 ? (
          <>
            <label className="field inline">
              <span>{t('finger.reader')}</span>
              <select value={selected?.id ?? ''} onChange={(e) => setReaderId(e.target.value)} data-testid={`${testId}-reader`}>
                {readers.map((r) => (
                  <option key={r.id} value={r.id}>{r.name}</option>
                ))}
              </select>
            </label>
            <button type="button" className="btn btn-primary" disabled={busy || full} onClick={() => void fromReader()} data-testid={`${testId}-capture`}>
              {t('finger.captureReader')}
            </button>
          </>
        ) : (
          <p className="muted">{t('finger.noReader')}</p>
        )}
        <label className={`btn file-btn${full ? ' disabled' : ''}`}>
          {t('finger.upload')}
          <input type="file" accept="image/png,image/jpeg,image/bmp,image/tiff" disabled={full} onChange={(e) => { void fromFile(e.target.files?.[0]); e.target.value = ''; }} data-testid={`${testId}-file`} />
        </label>
      </div>
      {(busy || capturing) && <Busy label={t('finger.place')} />}
      {error && <Notice kind="error" title={error} testId={`${testId}-reader-error`} />}
      {value.length > 0 && (
        <>
          <p className="muted" data-testid={`${testId}-count`}>{t('finger.count', { n: value.length })}</p>
          <ul className="fingers">
            {value.map((f, i) => (
              <li key={i} className={`finger q-${f.quality}`} data-testid={`${testId}-item`}>
                <img src={f.dataUrl} alt={`${i + 1}`} />
                <span className={`badge q-${f.quality}`}>{t('finger.quality')}: {t(`finger.quality.${f.quality}`)}</span>
                <button type="button" className="btn btn-small" onClick={() => onChange(value.filter((_, j) => j !== i))}>
                  {t('finger.remove')}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
