/**
 * Advanced liveness on the kiosk (issue #21): runs the capture library's colour challenge in a
 * panel, POSTs the payload to the station and shows the verdict with what to change. Self-contained
 * (engineer H); the Enroll and Verify screens (engineer G's) can drop it in as
 * `<AdvancedLiveness onResult={...} />`.
 */
import { useState } from 'react';
import { livenessAdvice } from '../../capture/liveness/advice.js';
import { session } from '../api';
import { Busy, Notice } from './ui';

export interface AdvancedLivenessVerdict {
  live: boolean;
  faceProbability?: number;
  captureProbability?: number;
  rejection: string[];
  /** error_code of a 400 answer. */
  errorCode?: string;
}

type CaptureLibrary = typeof import('../../capture/liveness/index.js');

/**
 * The library as the station serves it (./capture/biostation-capture.js beside the kiosk page), not
 * a copy bundled into the kiosk: its integrity proof hashes the module it runs from, and the station
 * accepts only the file it serves.
 */
const loadLibrary = (): Promise<CaptureLibrary> => import(/* @vite-ignore */ new URL('capture/biostation-capture.js', document.baseURI).href) as Promise<CaptureLibrary>;

export function AdvancedLiveness({ onResult }: { onResult?: (v: AdvancedLivenessVerdict) => void }) {
  const [state, setState] = useState<{ busy: boolean; step?: string; verdict?: AdvancedLivenessVerdict; error?: string }>({ busy: false });

  const run = async () => {
    setState({ busy: true });
    try {
      const token = session.token() ?? '';
      // No container: the library draws a full-screen layer, so the challenge colours light the face as much as the screen can.
      const { captureLiveness } = await loadLibrary();
      const payload = await captureLiveness({ baseUrl: location.origin, token, onFeedback: (f) => setState((s) => ({ ...s, step: f.message })) });
      const res = await fetch('/api/v1/services/liveness/check', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: payload as BodyInit });
      const body = await res.json();
      const verdict: AdvancedLivenessVerdict = res.ok
        ? {
            live: body.data.face_liveness.probability >= 0.5 && body.data.capture_liveness.probability >= 0.5,
            faceProbability: body.data.face_liveness.probability,
            captureProbability: body.data.capture_liveness.probability,
            rejection: body.data.capture_liveness.rejection,
          }
        : { live: false, rejection: [], errorCode: body.error_code ?? 'UNKNOWN' };
      setState({ busy: false, verdict });
      onResult?.(verdict);
    } catch (e) {
      setState({ busy: false, error: String((e as Error).message ?? e) });
    }
  };

  const v = state.verdict;
  const advice = v ? livenessAdvice(v.errorCode ? [v.errorCode] : v.rejection) : [];
  return (
    <section data-testid="advanced-liveness">
      {state.busy && <Busy label={state.step ?? 'Preparando a câmera'} />}
      {!state.busy && (
        <button type="button" onClick={() => void run()}>
          Prova de vida avançada
        </button>
      )}
      {state.error && <Notice kind="error" title="Captura não realizada">{state.error}</Notice>}
      {v && (
        <Notice kind={v.live ? 'success' : 'warn'} title={v.live ? 'Prova de vida aprovada' : 'Prova de vida não aprovada'} testId="advanced-liveness-verdict">
          {v.faceProbability !== undefined && <div>Rosto vivo: {Math.round(v.faceProbability * 100)} % · Captura legítima: {Math.round((v.captureProbability ?? 0) * 100)} %</div>}
          {advice.map((a) => <div key={a}>{a}</div>)}
        </Notice>
      )}
    </section>
  );
}
