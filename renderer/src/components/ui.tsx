import { useCallback, useState, type ReactNode } from 'react';
import { ApiError, type Decision } from '../api.js';
import { confidenceWord, type ScoreScale } from '../confidence.js';
import { useI18n } from '../i18n/index.js';
import { qualityFailuresOf } from '../quality.js';

/** A spinner with a label; announced to screen readers. */
export function Busy({ label }: { label?: string }) {
  const { t } = useI18n();
  return (
    <div className="busy" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      <span>{label ?? t('app.working')}</span>
    </div>
  );
}

/** A coloured message box. */
export function Notice({ kind, title, children, testId }: { kind: 'error' | 'success' | 'info' | 'warn'; title?: string; children?: ReactNode; testId?: string }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'} data-testid={testId}>
      {title && <strong className="notice-title">{title}</strong>}
      {children && <div>{children}</div>}
    </div>
  );
}

/** Turns any failure into the clerk-facing text of its stable code (a refused face says which limit it failed). */
export function useErrorText(): (e: unknown) => string {
  const { t, errorText } = useI18n();
  return useCallback(
    (e: unknown) => {
      if (e instanceof ApiError) {
        if (e.status === 0) return t('error.network');
        const why = e.code === 'FACE_QUALITY_TOO_LOW' ? qualityFailuresOf(e.message) : [];
        if (why.length) return t('quality.why', { why: why.map((w) => t(`quality.${w}`)).join(', ') });
        return errorText(e.code) ?? (e.message || t('error.generic'));
      }
      return e instanceof Error && e.message ? e.message : t('error.generic');
    },
    [t, errorText],
  );
}

/** Runs an async action with busy and error state. */
export function useAction<A extends unknown[], R>(fn: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(
    async (...args: A): Promise<R | undefined> => {
      setBusy(true);
      setError(null);
      try {
        return await fn(...args);
      } catch (e) {
        setError(e);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [fn],
  );
  return { busy, error, run, setError };
}

/**
 * Shows an action's error (if any) in plain words. The stable code is not printed (a clerk cannot
 * act on it); it stays on the element as `data-code` for support and tests.
 */
export function ErrorNotice({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <div className="notice notice-error" role="alert" data-testid="error" data-code={code}>
      <strong className="notice-title">{text(error)}</strong>
    </div>
  );
}

/** Screen frame: title and a back button. */
export function Screen({ title, onBack, children }: { title: string; onBack: () => void; children: ReactNode }) {
  const { t } = useI18n();
  return (
    <section className="screen" aria-labelledby="screen-title">
      <div className="screen-head">
        <button type="button" className="btn btn-ghost" onClick={onBack}>
          ← {t('app.back')}
        </button>
        <h1 id="screen-title">{title}</h1>
      </div>
      {children}
    </section>
  );
}

export { confidenceWord, type ConfidenceWord, type ScoreScale } from '../confidence.js';

/** The confidence word of a decision (shown on the card) and its numbers, folded in a details line. */
export function ScoreLine({ score, threshold, matched, scale }: { score?: number; threshold?: number; matched: boolean; scale?: ScoreScale }) {
  const { t, lang } = useI18n();
  const word = confidenceWord(score, threshold, matched, scale);
  const fmt = (n: number) => n.toLocaleString(lang, { maximumFractionDigits: 3, minimumFractionDigits: 3 });
  return (
    <>
      {word && <p className="confidence" data-testid="confidence">{t('result.confidence')}: <b>{t(`result.confidence.${word}`)}</b></p>}
      {score !== undefined && (
        <details className="details">
          <summary>{t('result.details')}</summary>
          <p className="score" data-testid="score">
            {t('result.score')}: {fmt(score)}
            {threshold !== undefined && ` · ${t('result.threshold')}: ${fmt(threshold)}`}
          </p>
        </details>
      )}
    </>
  );
}

/**
 * The verdict card of a decision. Green only when the biometric matched and, if liveness was asked,
 * the station evaluated it; a match whose liveness was not evaluated is amber with the reason.
 * (A failed liveness check, 1013, arrives as an error and is shown red by ErrorNotice.)
 */
export function Verdict({ decision, yes, no, testId, children, after }: {
  decision: Decision;
  yes: string;
  no: string;
  testId: string;
  children?: ReactNode;
  /** Shown below the confidence and the details (e.g. identify's other candidates). */
  after?: ReactNode;
}) {
  const { t } = useI18n();
  const unprovenLiveness = decision.livenessRequested && decision.livenessEvaluated === false;
  const kind = !decision.matched ? 'warn' : unprovenLiveness ? 'warn' : 'success';
  return (
    <div className={`notice notice-${kind} verdict`} role="status" data-testid={testId} data-verdict={decision.matched ? 'match' : 'nomatch'} data-kind={kind}>
      <strong className="notice-title">{decision.matched ? yes : no}</strong>
      {children}
      {decision.matched && unprovenLiveness && <p className="warn-text" data-testid="liveness-unproven">{t('liveness.notEvaluated')}</p>}
      <ScoreLine score={decision.score} threshold={decision.threshold} matched={decision.matched} scale={decision.scoreScale} />
      {after}
    </div>
  );
}
