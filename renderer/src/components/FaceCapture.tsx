import { useEffect, useRef, useState } from 'react';
import { CaptureError, createFaceDetector, fileToBase64, grabFrame, runFaceGuide, startCamera, stopCamera, type FaceDetector, type Feedback } from '../../capture/index.js';
import { useI18n, type MessageKey } from '../i18n/index.js';

/** A captured face image. */
export interface FaceImage {
  base64: string;
  dataUrl: string;
}

let detectorPromise: Promise<FaceDetector | null> | null = null;
/** The face detector, loaded once per page; null when it cannot load (manual capture then). */
function loadDetector(): Promise<FaceDetector | null> {
  detectorPromise ??= createFaceDetector('./models').catch((e: unknown) => {
    console.warn('face detector unavailable', e);
    return null;
  });
  return detectorPromise;
}

/**
 * Guided face capture: live camera with a face oval and real-time feedback (no face, too far, too
 * close, off-centre, too dark), automatic capture after a few good frames, a manual capture
 * button, and photo upload when there is no camera.
 */
export function FaceCapture({ value, onChange, testId = 'face' }: { value: FaceImage | null; onChange: (v: FaceImage | null) => void; testId?: string }) {
  const { t } = useI18n();
  const video = useRef<HTMLVideoElement>(null);
  const [live, setLive] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | 'loading'>('loading');
  const [cameraError, setCameraError] = useState<string | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const [detectorReady, setDetectorReady] = useState(false);

  // Load the detector as soon as the step shows, so guidance starts with the first camera frame.
  useEffect(() => {
    let alive = true;
    void loadDetector().then(() => alive && setDetectorReady(true));
    return () => {
      alive = false;
    };
  }, []);

  useEffect(() => {
    if (value || !live) return;
    let stream: MediaStream | null = null;
    let stopGuide: () => void = () => undefined;
    let cancelled = false;
    (async () => {
      try {
        stream = await startCamera(video.current!);
      } catch (e) {
        setCameraError(e instanceof CaptureError && e.code === 'LOW_RESOLUTION' ? t('face.lowRes') : t('face.noCamera'));
        setLive(false);
        return;
      }
      if (cancelled) return stopCamera(stream);
      setFeedback('loading');
      const detector = await loadDetector();
      if (cancelled) return;
      stopGuide = runFaceGuide({
        video: video.current!,
        detector,
        onFeedback: (f) => setFeedback(f),
        onCapture: (frame) => onChangeRef.current({ base64: frame.base64, dataUrl: frame.dataUrl }),
      });
    })();
    return () => {
      cancelled = true;
      stopGuide();
      stopCamera(stream);
    };
  }, [live, value, t]);

  const manual = () => {
    if (video.current && video.current.videoWidth > 0) {
      const frame = grabFrame(video.current);
      onChange({ base64: frame.base64, dataUrl: frame.dataUrl });
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    const { base64, dataUrl } = await fileToBase64(file);
    setLive(false);
    onChange({ base64, dataUrl });
  };

  if (value) {
    return (
      <div className="capture face-capture" data-testid={`${testId}-captured`}>
        <img className="capture-preview" src={value.dataUrl} alt={t('face.captured')} />
        <div className="capture-controls">
          <p className="ok-text">✓ {t('face.captured')}</p>
          <button type="button" className="btn" onClick={() => { onChange(null); setLive(true); }}>
            {t('face.retake')}
          </button>
        </div>
      </div>
    );
  }
  const tone = feedback === 'good' ? 'good' : feedback === 'loading' || feedback === 'manual' ? 'neutral' : 'bad';
  return (
    <div className="capture face-capture">
      <div className={`camera camera-${tone}`} hidden={!live}>
        <video ref={video} data-testid={`${testId}-video`} aria-label={t('face.title')} />
        <svg className="oval" viewBox="0 0 100 75" preserveAspectRatio="none" aria-hidden="true">
          <ellipse cx="50" cy="37.5" rx="17" ry="27" />
        </svg>
        <p className="feedback" data-testid={`${testId}-feedback`} aria-live="polite">
          {feedback === 'loading' ? t('face.loadingDetector') : t(`feedback.${feedback}` as MessageKey)}
        </p>
      </div>
      <div className="capture-controls">
      {cameraError && <p className="warn-text">{cameraError}</p>}
      <div className="row">
        {!live && (
          <button type="button" className="btn btn-primary" onClick={() => { setCameraError(null); setLive(true); }} data-testid={`${testId}-start`} data-detector={detectorReady ? 'ready' : 'loading'}>
            {t('face.start')}
          </button>
        )}
        {live && (
          <button type="button" className="btn btn-primary" onClick={manual} data-testid={`${testId}-capture`}>
            {t('face.capture')}
          </button>
        )}
        <label className="btn file-btn">
          {t('face.upload')}
          <input type="file" accept="image/jpeg,image/png" onChange={(e) => void upload(e.target.files?.[0])} data-testid={`${testId}-file`} />
        </label>
      </div>
      </div>
    </div>
  );
}
