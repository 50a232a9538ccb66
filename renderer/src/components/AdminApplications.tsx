import { useCallback, useEffect, useState } from 'react';
import { adminApi, session, type AdminApplication } from '../api.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { Busy, ErrorNotice, Notice, useAction } from './ui.js';

/**
 * The station's applications (station-admin API): listed with their state and de-duplication
 * policy, created, disabled and given a new secret. A new secret is shown once, here.
 */
export function AdminApplications({ onLocked }: { onLocked: () => void }) {
  const { t } = useI18n();
  const [apps, setApps] = useState<AdminApplication[] | null>(null);
  const [name, setName] = useState('');
  const [issued, setIssued] = useState<{ name: string; key: string; secret: string } | null>(null);
  const load = useAction(useCallback(async () => setApps(await adminApi.applications()), []));
  useEffect(() => void load.run(), []); // eslint-disable-line react-hooks/exhaustive-deps
  useEffect(() => {
    if (!adminApi.token()) onLocked();
  });
  const act = useAction(async (what: () => Promise<unknown>) => {
    await what();
    await load.run();
  });
  const create = useAction(async () => {
    setIssued(await adminApi.create(name.trim()));
    setName('');
    await load.run();
  });

  return (
    <article className="card card-wide" data-testid="admin-apps">
      <h2>{t('admin.apps')}</h2>
      {load.busy && !apps && <Busy />}
      <ErrorNotice error={load.error ?? act.error} />
      {apps && (
        <table className="apps" data-testid="admin-apps-table">
          <thead>
            <tr><th>{t('admin.app.name')}</th><th>{t('admin.app.key')}</th><th>{t('admin.app.state')}</th><th>{t('admin.app.dedup')}</th><th /></tr>
          </thead>
          <tbody>
            {apps.map((a) => (
              <tr key={a.key} data-testid={`admin-app-${a.name}`}>
                <td><b>{a.name}</b>{a.key === session.appKey() && <small className="muted"> · {t('admin.app.current')}</small>}</td>
                <td><code>{a.key}</code></td>
                <td className={a.disabledAt ? 'bad-text' : 'ok-text'} data-testid="admin-app-state">{a.disabledAt ? t('admin.app.disabled') : t('admin.app.active')}</td>
                <td>
                  <select aria-label={t('admin.app.dedup')} value={a.dedupPolicy} disabled={!!a.disabledAt || act.busy}
                    onChange={(e) => void act.run(() => adminApi.setDedup(a.key, e.target.value as AdminApplication['dedupPolicy']))} data-testid="admin-app-dedup">
                    {(['warn', 'block', 'off'] as const).map((p) => <option key={p} value={p}>{t(`admin.dedup.${p}` as MessageKey)}</option>)}
                  </select>
                </td>
                <td>
                  <div className="row">
                  <button type="button" className="btn btn-small" disabled={!!a.disabledAt || act.busy} data-testid="admin-app-rotate"
                    onClick={() => void act.run(async () => setIssued(await adminApi.rotate(a.key)))}>{t('admin.app.rotate')}</button>
                  <button type="button" className="btn btn-small" disabled={!!a.disabledAt || act.busy} data-testid="admin-app-disable"
                    onClick={() => { if (window.confirm(t('admin.app.disableConfirm', { name: a.name }))) void act.run(() => adminApi.disable(a.key)); }}>{t('admin.app.disable')}</button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {issued && (
        <Notice kind="info" title={t('admin.app.issued', { name: issued.name })} testId="admin-app-issued">
          <p>{t('login.key')}: <code data-testid="admin-issued-key">{issued.key}</code></p>
          <p>{t('login.secret')}: <code data-testid="admin-issued-secret">{issued.secret}</code></p>
          <p className="muted">{t('admin.app.issuedNote')}</p>
        </Notice>
      )}
      <form className="row" onSubmit={(e) => { e.preventDefault(); if (name.trim()) void create.run(); }}>
        <label className="field inline">
          <span>{t('admin.app.newName')}</span>
          <input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} data-testid="admin-app-name" />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!name.trim() || create.busy} data-testid="admin-app-create">{t('admin.app.create')}</button>
      </form>
      <ErrorNotice error={create.error} />
    </article>
  );
}

/** The station-admin secret, asked before the Admin screen opens. */
export function AdminUnlock({ onUnlocked }: { onUnlocked: () => void }) {
  const { t } = useI18n();
  const [secret, setSecret] = useState('');
  const unlock = useAction(async () => {
    await adminApi.unlock(secret.trim());
    setSecret('');
    onUnlocked();
  });
  return (
    <form className="stack admin-unlock" onSubmit={(e) => { e.preventDefault(); void unlock.run(); }} data-testid="admin-unlock">
      <p>{t('admin.unlock.hint')}</p>
      <label className="field">
        <span>{t('admin.unlock.secret')}</span>
        <input type="password" autoComplete="off" value={secret} onChange={(e) => setSecret(e.target.value)} required autoFocus data-testid="admin-secret" />
      </label>
      <button type="submit" className="btn btn-primary btn-large" disabled={unlock.busy} data-testid="admin-unlock-submit">{t('admin.unlock.submit')}</button>
      {unlock.busy && <Busy />}
      <ErrorNotice error={unlock.error} />
    </form>
  );
}
