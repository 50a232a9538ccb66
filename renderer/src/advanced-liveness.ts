/**
 * The advanced liveness verdict as the kiosk shows it (components/AdvancedLiveness.tsx): the station's
 * answer to POST /api/v1/services/liveness/check -> live or not, and what to tell the person
 * (the capture library's `livenessAdvice`, pt-BR). Pure, so it is unit-tested without a browser.
 */
import { livenessAdvice } from '../capture/liveness/advice.js';

export interface AdvancedLivenessVerdict {
  live: boolean;
  faceProbability?: number;
  captureProbability?: number;
  rejection: string[];
  /** error_code of a 400 answer. */
  errorCode?: string;
  /** The station's message of a non-200 answer (e.g. "Failed to parse file"). */
  message?: string;
}

const isProbability = (x: unknown): x is number => typeof x === 'number' && Number.isFinite(x);

/**
 * The station's answer (HTTP status, JSON body) -> verdict. `live` only for a 200 with
 * `data.face_liveness.probability` >= 0.5, `data.capture_liveness.probability` >= 0.5 and an empty
 * `data.capture_liveness.rejection`; any other status or shape is not live.
 */
export function livenessVerdictOf(status: number, body: any): AdvancedLivenessVerdict {
  if (status !== 200) {
    return { live: false, rejection: [], errorCode: typeof body?.error_code === 'string' ? body.error_code : undefined, message: typeof body?.message === 'string' ? body.message : `HTTP ${status}` };
  }
  const face = body?.data?.face_liveness?.probability;
  const capture = body?.data?.capture_liveness?.probability;
  const rejection: string[] = Array.isArray(body?.data?.capture_liveness?.rejection) ? body.data.capture_liveness.rejection.map(String) : [];
  if (!isProbability(face) || !isProbability(capture) || !Array.isArray(body?.data?.capture_liveness?.rejection)) {
    return { live: false, rejection, message: 'Resposta da estação incompleta' };
  }
  return { live: face >= 0.5 && capture >= 0.5 && rejection.length === 0, faceProbability: face, captureProbability: capture, rejection };
}

/** What to tell the person for a verdict that is not live: one sentence per reason, a generic one when none is known. */
export function adviceFor(v: AdvancedLivenessVerdict): string[] {
  if (v.live) return [];
  const advice = livenessAdvice(v.errorCode ? [v.errorCode] : v.rejection);
  return advice.length ? advice : ['Tente de novo, de frente para a câmera e perto da tela.'];
}


/** The advanced liveness option of a screen: switched on or not, and the verdict shown for the current inputs. */
export interface LivenessGate {
  open: boolean;
  verdict: AdvancedLivenessVerdict | null;
}

export const GATE_OFF: LivenessGate = { open: false, verdict: null };

/**
 * Whether enrollment / verification may go ahead under the advanced liveness option: null when it
 * may (option off, or a live verdict), 'pending' when the option is on and no verdict was obtained
 * for the current inputs, 'rejected' when the verdict is not live.
 */
export function livenessGateBlock(gate: LivenessGate): 'pending' | 'rejected' | null {
  if (!gate.open) return null;
  if (!gate.verdict) return 'pending';
  return gate.verdict.live ? null : 'rejected';
}
