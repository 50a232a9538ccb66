import { useState, type FormEvent } from 'react';
import { api, session } from '../api.js';
import { ErrorNotice, useAction, Busy } from '../components/ui.js';
import { useI18n } from '../i18n/index.js';

/** Key + secret once per session; the token is kept in sessionStorage. */
export function Login({ onDone }: { onDone: () => void }) {
  const { t } = useI18n();
  const [key, setKey] = useState('');
  const [secret, setSecret] = useState('');
  const login = useAction(async () => {
    await api.login(key.trim(), secret.trim());
    onDone();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void login.run();
  };
  return (
    <section className="screen login" aria-labelledby="login-title">
      <h1 id="login-title">{t('login.title')}</h1>
      <p className="muted">{t('login.hint')}</p>
      <form onSubmit={submit} className="stack">
        <label className="field">
          <span>{t('login.key')}</span>
          <input name="key" autoComplete="username" value={key} onChange={(e) => setKey(e.target.value)} required autoFocus />
        </label>
        <label className="field">
          <span>{t('login.secret')}</span>
          <input name="secret" type="password" autoComplete="current-password" value={secret} onChange={(e) => setSecret(e.target.value)} required />
        </label>
        <button type="submit" className="btn btn-primary btn-large" disabled={login.busy}>
          {t('login.submit')}
        </button>
        {login.busy && <Busy />}
        <ErrorNotice error={login.error} />
      </form>
    </section>
  );
}

/**
 * The session expired (an API call answered 401): a dialog over the current screen asks for the
 * credential again. The screen underneath stays mounted, so the enrollment in progress is kept
 * and the call that met the 401 is repeated once the new token is stored.
 */
export function Relogin({ onDone, onLogout }: { onDone: () => void; onLogout: () => void }) {
  const { t } = useI18n();
  const [key, setKey] = useState(() => session.appKey() ?? '');
  const [secret, setSecret] = useState('');
  const login = useAction(async () => {
    await api.login(key.trim(), secret.trim());
    onDone();
  });
  return (
    <div className="modal-backdrop">
      <section className="modal" role="dialog" aria-modal="true" aria-labelledby="relogin-title" data-testid="relogin">
        <h1 id="relogin-title">{t('relogin.title')}</h1>
        <p>{t('relogin.hint')}</p>
        <form className="stack" onSubmit={(e) => { e.preventDefault(); void login.run(); }}>
          <label className="field">
            <span>{t('login.key')}</span>
            <input name="key" autoComplete="username" value={key} onChange={(e) => setKey(e.target.value)} required />
          </label>
          <label className="field">
            <span>{t('login.secret')}</span>
            <input name="secret" type="password" autoComplete="current-password" value={secret} onChange={(e) => setSecret(e.target.value)} required autoFocus data-testid="relogin-secret" />
          </label>
          <div className="row">
            <button type="submit" className="btn btn-primary btn-large" disabled={login.busy} data-testid="relogin-submit">{t('relogin.submit')}</button>
            <button type="button" className="btn btn-ghost" onClick={onLogout}>{t('app.logout')}</button>
          </div>
          {login.busy && <Busy />}
          <ErrorNotice error={login.error} />
        </form>
      </section>
    </div>
  );
}
