import { useEffect, useRef, useState } from 'react';
import {
  CaptureError, GUIDE, checkStill, createFaceDetector, fileToBase64, grabFrame, runFaceGuide, startCamera, stopCamera,
  type CaptureErrorCode, type FaceDetector, type Feedback,
} from '../../capture/index.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { CameraProblem } from './CameraProblem.js';

/** A captured face image; `warning`: what the guide still saw wrong when the clerk captured by hand. */
export interface FaceImage {
  base64: string;
  dataUrl: string;
  warning?: Feedback;
  /**
   * Extra frames of the same camera capture (base64 JPEG), taken over ~1 s after the main one when the
   * passive liveness check is on: sent as the station's `livenessFrames` (docs/enrollment-extensions.md).
   * Absent for an uploaded photo.
   */
  frames?: string[];
}

/** Extra frames the capture takes for the passive liveness check, and the pause between them (ms): 3 x 330 ms ~ 1 s. */
export const LIVENESS_FRAMES = { count: 3, intervalMs: 330 } as const;

/** `count` frames of the live video, `intervalMs` apart (null when the video stops or `alive()` turns false meanwhile). */
async function grabFrames(video: HTMLVideoElement, count: number, intervalMs: number, alive: () => boolean): Promise<string[] | null> {
  const frames: string[] = [];
  for (let i = 0; i < count; i++) {
    await new Promise((r) => setTimeout(r, intervalMs));
    if (!alive() || video.videoWidth === 0) return null;
    frames.push(grabFrame(video).base64);
  }
  return frames;
}

let detectorPromise: Promise<FaceDetector | null> | null = null;
/** The face detector, loaded once per page; null when it cannot load (manual capture then). */
export function loadDetector(): Promise<FaceDetector | null> {
  detectorPromise ??= createFaceDetector('./models').catch((e: unknown) => {
    console.warn('face detector unavailable', e);
    return null;
  });
  return detectorPromise;
}

/** Feedbacks for which a manual capture is refused (nothing usable in the frame). */
const REFUSE_MANUAL: Feedback[] = ['noFace', 'manyFaces', 'tooDark'];
/** Feedbacks a manual capture keeps, with a warning beside the photo (the station may still refuse it, and says why). */
const WARN_MANUAL: Feedback[] = ['tooFar', 'tooClose', 'offCentre', 'headTurned', 'eyesClosed', 'blurry'];

/**
 * Guided face capture: live camera with a face oval and real-time feedback (no face, too far, too
 * close, off-centre, too dark, head turned, eyes closed, blurred), a countdown and automatic capture once the face has held still in
 * the oval, a manual capture button (refused when the frame holds no usable face), and photo upload
 * when there is no camera. The oval is drawn from GUIDE, the same numbers the acceptance rule uses.
 */
export function FaceCapture({ value, onChange, testId = 'face', livenessFrames = 0 }: {
  value: FaceImage | null;
  onChange: (v: FaceImage | null) => void;
  testId?: string;
  /** Extra frames to take after the main one (LIVENESS_FRAMES.count while the liveness switch is on; 0: none). */
  livenessFrames?: number;
}) {
  const { t } = useI18n();
  const video = useRef<HTMLVideoElement>(null);
  const [live, setLive] = useState(false);
  const [feedback, setFeedback] = useState<Feedback | 'loading'>('loading');
  const [holdLeft, setHoldLeft] = useState<number | null>(null);
  const [cameraError, setCameraError] = useState<CaptureErrorCode | null>(null);
  const [refused, setRefused] = useState<Feedback | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const framesRef = useRef(livenessFrames);
  framesRef.current = livenessFrames;
  /** While the extra liveness frames are being taken after a capture. */
  const [burst, setBurst] = useState(false);
  /**
   * Bumped whenever the capture the frames belong to ends (camera stopped, photo retaken, file uploaded):
   * a burst still running then drops its result instead of replacing what the clerk chose since.
   */
  const epoch = useRef(0);
  /** A manual capture under way (its still check, then its burst): a second click meanwhile is ignored. */
  const capturing = useRef(false);
  /** The main frame plus, when asked, the extra frames of the same stream; a capture cut short (camera gone) is dropped. */
  const finish = async (v: HTMLVideoElement, image: FaceImage, alive: () => boolean) => {
    const count = framesRef.current;
    if (count <= 0) return onChangeRef.current(image);
    setBurst(true);
    const frames = await grabFrames(v, count, LIVENESS_FRAMES.intervalMs, alive);
    if (!alive()) return;
    setBurst(false);
    if (frames) onChangeRef.current({ ...image, frames });
  };
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
        setCameraError(e instanceof CaptureError ? e.code : 'NO_CAMERA');
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
        onFeedback: (f, _face, left) => {
          setFeedback(f);
          setHoldLeft(left);
          if (f !== 'noFace') setRefused(null);
        },
        onCapture: (frame) => void finish(video.current!, { base64: frame.base64, dataUrl: frame.dataUrl }, () => !cancelled),
      });
    })();
    return () => {
      cancelled = true;
      epoch.current++;
      setBurst(false);
      stopGuide();
      stopCamera(stream);
    };
  }, [live, value]);

  const manual = async () => {
    const v = video.current;
    if (!v || v.videoWidth === 0 || burst || capturing.current) return;
    capturing.current = true;
    try {
      const mine = epoch.current;
      const frame = grabFrame(v);
      const verdict = await checkStill(v, await loadDetector());
      if (epoch.current !== mine) return;
      if (REFUSE_MANUAL.includes(verdict)) {
        setRefused(verdict);
        return;
      }
      setRefused(null);
      await finish(v, { base64: frame.base64, dataUrl: frame.dataUrl, ...(WARN_MANUAL.includes(verdict) ? { warning: verdict } : {}) }, () => epoch.current === mine);
    } finally {
      capturing.current = false;
    }
  };
  const upload = async (file: File | undefined) => {
    if (!file) return;
    const { base64, dataUrl } = await fileToBase64(file);
    epoch.current++;
    setBurst(false);
    setLive(false);
    onChange({ base64, dataUrl });
  };

  if (value) {
    return (
      <div className="capture face-capture" data-testid={`${testId}-captured`} data-burst={burst ? 'on' : 'off'}>
        <img className="capture-preview" src={value.dataUrl} alt={t('face.captured')} />
        <div className="capture-controls">
          <p className="ok-text">✓ {t('face.captured')}</p>
          {value.warning && <p className="bad-text" data-testid={`${testId}-warning`} data-feedback={value.warning}>{t('face.warning', { why: t(`feedback.${value.warning}` as MessageKey) })}</p>}
          <button type="button" className="btn" onClick={() => { onChange(null); setLive(true); }}>
            {t('face.retake')}
          </button>
        </div>
      </div>
    );
  }
  const tone = feedback === 'good' ? 'good' : feedback === 'loading' || feedback === 'manual' ? 'neutral' : 'bad';
  // The oval in the SVG's 100 x 75 box (4:3 like the video), from GUIDE.
  const oval = { cx: GUIDE.ovalCx * 100, cy: GUIDE.ovalCy * 75, rx: GUIDE.ovalRx * 100, ry: GUIDE.ovalRy * 75 };
  const countdown = feedback === 'good' && holdLeft !== null ? Math.max(1, Math.ceil(holdLeft / 400)) : null;
  return (
    <div className="capture face-capture">
      <div className={`camera camera-${tone}`} hidden={!live}>
        <video ref={video} data-testid={`${testId}-video`} aria-label={t('face.title')} />
        <svg className="oval" viewBox="0 0 100 75" preserveAspectRatio="none" aria-hidden="true">
          <ellipse cx={oval.cx} cy={oval.cy} rx={oval.rx} ry={oval.ry} />
        </svg>
        {countdown !== null && <span className="countdown" data-testid={`${testId}-countdown`} aria-hidden="true">{countdown}</span>}
        <p className="feedback" data-testid={`${testId}-feedback`} data-feedback={burst ? 'burst' : feedback} aria-live="polite">
          {burst ? t('face.burst') : feedback === 'loading' ? t('face.loadingDetector') : t(`feedback.${feedback}` as MessageKey)}
        </p>
      </div>
      <div className="capture-controls">
        {cameraError && <CameraProblem code={cameraError} testId={`${testId}-camera-error`} />}
        {refused && <p className="bad-text" role="alert" data-testid={`${testId}-refused`}>{t('face.refused', { why: t(`feedback.${refused}` as MessageKey) })}</p>}
        <div className="row">
          {!live && (
            <button type="button" className="btn btn-primary" onClick={() => { setCameraError(null); setLive(true); }} data-testid={`${testId}-start`} data-detector={detectorReady ? 'ready' : 'loading'}>
              {cameraError ? t('app.retry') : t('face.start')}
            </button>
          )}
          {live && (
            <button type="button" className="btn btn-primary" onClick={() => void manual()} disabled={burst} data-testid={`${testId}-capture`}>
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
