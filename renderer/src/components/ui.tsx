import { useCallback, useState, type ReactNode } from 'react';
import { ApiError } from '../api.js';
import { useI18n } from '../i18n/index.js';

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

/** Turns any failure into the clerk-facing text of its stable code. */
export function useErrorText(): (e: unknown) => string {
  const { t, errorText } = useI18n();
  return useCallback(
    (e: unknown) => {
      if (e instanceof ApiError) {
        if (e.status === 0) return t('error.network');
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

/** Shows an action's error (if any) with its code. */
export function ErrorNotice({ error }: { error: unknown }) {
  const text = useErrorText();
  if (!error) return null;
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <Notice kind="error" title={text(error)} testId="error">
      {code && <small className="code">{code}</small>}
    </Notice>
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

/** Score and threshold of a decision, when the API gave them, and a note when liveness was not evaluated. */
export function ScoreLine({ score, threshold, livenessEvaluated }: { score?: number; threshold?: number; livenessEvaluated?: boolean }) {
  const { t } = useI18n();
  return (
    <>
      {score !== undefined && (
        <p className="score" data-testid="score">
          {t('result.score')}: <b>{score.toFixed(3)}</b>
          {threshold !== undefined && ` (${t('result.threshold')} ${threshold.toFixed(3)})`}
        </p>
      )}
      {livenessEvaluated === false && <p className="muted">{t('liveness.notEvaluated')}</p>}
    </>
  );
}
