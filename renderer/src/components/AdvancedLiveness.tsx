/**
 * Advanced liveness on the kiosk (issue #21): runs the capture library's colour challenge, POSTs the
 * payload to the station (POST /api/v1/services/liveness/check) and shows the station's verdict in
 * plain Portuguese: green only for a 200 whose face and capture probabilities are both >= 0.5 with an
 * empty rejection list; otherwise red, with what to change (the library's `livenessAdvice`) or the
 * plain message of a 400. Placed in Enroll (face step) and Verify behind `AdvancedLivenessOption`;
 * the parent remounts it (React `key`) when its inputs change, which clears the verdict.
 */
import { useEffect, useRef, useState } from 'react';
import { adviceFor, livenessGateBlock, livenessVerdictOf, type AdvancedLivenessVerdict, type LivenessGate } from '../advanced-liveness.js';
import { session } from '../api';
import { Busy, Notice } from './ui';

export type { AdvancedLivenessVerdict, LivenessGate };

type CaptureLibrary = typeof import('../../capture/liveness/index.js');

/**
 * The library as the station serves it (./capture/biostation-capture.js beside the kiosk page), not
 * a copy bundled into the kiosk: its integrity proof hashes the module it runs from, and the station
 * accepts only the file it serves.
 */
const loadLibrary = (): Promise<CaptureLibrary> => import(/* @vite-ignore */ new URL('capture/biostation-capture.js', document.baseURI).href) as Promise<CaptureLibrary>;

const pct = (p: number) => `${Math.round(p * 100)} %`;

export function AdvancedLiveness({ onResult, initial }: { onResult?: (v: AdvancedLivenessVerdict) => void; initial?: AdvancedLivenessVerdict | null }) {
  const [state, setState] = useState<{ busy: boolean; step?: string; verdict?: AdvancedLivenessVerdict; error?: string }>({ busy: false, ...(initial ? { verdict: initial } : {}) });
  /** False once unmounted (inputs changed): a capture still running then reports nothing. */
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = async () => {
    setState({ busy: true });
    try {
      const token = session.token() ?? '';
      // No container: the library draws a full-screen layer, so the challenge colours light the face as much as the screen can.
      const { captureLiveness } = await loadLibrary();
      const payload = await captureLiveness({ baseUrl: location.origin, token, onFeedback: (f) => mounted.current && setState((s) => ({ ...s, step: f.message })) });
      const res = await fetch('/api/v1/services/liveness/check', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' }, body: payload as BodyInit });
      const body = await res.json().catch(() => undefined);
      const verdict = livenessVerdictOf(res.status, body);
      if (!mounted.current) return;
      setState({ busy: false, verdict });
      onResult?.(verdict);
    } catch (e) {
      if (mounted.current) setState({ busy: false, error: String((e as Error).message ?? e) });
    }
  };

  const v = state.verdict;
  return (
    <section className="stack" data-testid="advanced-liveness">
      {state.busy && <Busy label={state.step ?? 'Preparando a câmera'} />}
      {!state.busy && (
        <button type="button" className="btn" onClick={() => void run()} data-testid="advanced-liveness-run">
          {v || state.error ? 'Repetir a vivacidade avançada' : 'Iniciar a vivacidade avançada'}
        </button>
      )}
      {state.error && <Notice kind="error" title="Vivacidade não verificada: a captura falhou" testId="advanced-liveness-error">{state.error}</Notice>}
      {v && (
        <div data-testid="advanced-liveness-verdict" data-live={String(v.live)}>
          {v.live ? (
            <Notice kind="success" title="Vivacidade aprovada">
              <div>Rosto vivo: {pct(v.faceProbability!)} · Captura legítima: {pct(v.captureProbability!)}</div>
            </Notice>
          ) : (
            <Notice kind="error" title={v.faceProbability === undefined ? 'Vivacidade não verificada' : 'Vivacidade não aprovada'}>
              {v.faceProbability !== undefined && <div>Rosto vivo: {pct(v.faceProbability)} · Captura legítima: {pct(v.captureProbability ?? 0)}</div>}
              <div>O que mudar:</div>
              <ul className="outcomes">
                {adviceFor(v).map((a) => <li key={a}>{a}</li>)}
              </ul>
              {v.message && <div data-testid="advanced-liveness-message">Resposta da estação: {v.message}</div>}
            </Notice>
          )}
        </div>
      )}
    </section>
  );
}

/**
 * The "Vivacidade avançada" option of a screen: a switch that opens the panel, controlled by the
 * screen (`gate`: switched on, and the verdict for the current inputs), so the screen can refuse to
 * go ahead while the option is on without a live verdict (`LivenessBlock`). The screen clears the
 * verdict when its inputs change; `inputs` also remount the panel then, so no verdict outlives the
 * inputs it was shown with.
 */
export function AdvancedLivenessOption({ inputs, gate, onGate }: { inputs: unknown[]; gate: LivenessGate; onGate: (g: LivenessGate) => void }) {
  const [generation, setGeneration] = useState(0);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setGeneration((g) => g + 1);
  }, inputs);
  return (
    <div className="stack">
      <label className="check">
        <input type="checkbox" checked={gate.open} onChange={(e) => onGate({ open: e.target.checked, verdict: null })} data-testid="advanced-liveness-toggle" />
        <span>Vivacidade avançada</span>
      </label>
      {gate.open && <AdvancedLiveness key={generation} initial={gate.verdict} onResult={(verdict) => onGate({ open: true, verdict })} />}
    </div>
  );
}

/**
 * Why the screen's action is refused under the advanced liveness option (red, in Portuguese), or
 * nothing when it may go ahead. `what`: the action refused ("O cadastro", "A verificação").
 */
export function LivenessBlock({ gate, what, testId }: { gate: LivenessGate; what: string; testId: string }) {
  const block = livenessGateBlock(gate);
  if (!block) return null;
  return (
    <div data-testid={testId} data-block={block}>
      <Notice kind="error" title={block === 'pending' ? `Vivacidade avançada ligada: faça a verificação antes. ${what} não pode continuar sem ela.` : `Vivacidade avançada reprovada: ${what.toLowerCase()} não pode continuar.`}>
        {block === 'rejected' && gate.verdict && <ul className="outcomes">{adviceFor(gate.verdict).map((a) => <li key={a}>{a}</li>)}</ul>}
      </Notice>
    </div>
  );
}
