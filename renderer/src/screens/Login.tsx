import { useState, type FormEvent } from 'react';
import { api } from '../api.js';
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
