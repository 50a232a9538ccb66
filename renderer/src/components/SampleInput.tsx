import { useI18n } from '../i18n/index.js';
import { FaceCapture, LIVENESS_FRAMES, type FaceImage } from './FaceCapture.js';
import { FingerCapture, type FingerImage } from './FingerCapture.js';

export type Modality = 'face' | 'finger';

/** One probe: a face (camera or photo) or one fingerprint (reader or image). */
export interface Sample {
  face: FaceImage | null;
  finger: FingerImage[];
}

export const emptySample: Sample = { face: null, finger: [] };

/** The base64 image of a sample for a modality, or null when not captured yet. */
export function sampleImage(sample: Sample, modality: Modality): string | null {
  return modality === 'face' ? (sample.face?.base64 ?? null) : (sample.finger[0]?.base64 ?? null);
}

/** Face/fingerprint switch. */
export function ModalitySwitch({ value, onChange }: { value: Modality; onChange: (m: Modality) => void }) {
  const { t } = useI18n();
  return (
    <div className="segmented" role="radiogroup">
      {(['face', 'finger'] as const).map((m) => (
        <button key={m} type="button" role="radio" aria-checked={value === m} className={value === m ? 'on' : ''} onClick={() => onChange(m)} data-testid={`modality-${m}`}>
          {t(`modality.${m}`)}
        </button>
      ))}
    </div>
  );
}

/** Captures one sample of the chosen modality; `liveness`: the passive check is on, so a camera capture takes its extra frames. */
export function SampleInput({ modality, value, onChange, testId, liveness = false }: { modality: Modality; value: Sample; onChange: (s: Sample) => void; testId: string; liveness?: boolean }) {
  return modality === 'face' ? (
    <FaceCapture value={value.face} onChange={(face) => onChange({ ...value, face })} testId={`${testId}-face`} livenessFrames={liveness ? LIVENESS_FRAMES.count : 0} />
  ) : (
    <FingerCapture value={value.finger} onChange={(finger) => onChange({ ...value, finger })} max={1} testId={`${testId}-finger`} />
  );
}
