import { useCallback, useEffect, useState, type ChangeEvent } from 'react';
import { adminApi, type AdminSyncPeer } from '../api.js';
import { useI18n } from '../i18n/index.js';
import { Busy, ErrorNotice, Notice, useAction } from './ui.js';

const EMPTY = { name: '', url: '', key: '', secret: '' };

/**
 * The sync peers of one application (station-admin API, src/http/routes/admin-peers.ts): listed
 * with where they come from, an added one removed, a new one added (name, https address, the
 * peer application's key and secret). The secret field is cleared once sent and never shown again;
 * the station checks every field (the error code's text is shown). `onChanged` lets the sync card
 * reload its peers (pull/push buttons).
 */
export function AdminSyncPeers({ appKey, onChanged }: { appKey: string; onChanged: () => void }) {
  const { t } = useI18n();
  const [peers, setPeers] = useState<AdminSyncPeer[] | null>(null);
  const [form, setForm] = useState(EMPTY);
  const [added, setAdded] = useState<string | null>(null);
  const load = useAction(useCallback(async () => setPeers(await adminApi.syncPeers(appKey)), [appKey]));
  useEffect(() => void load.run(), [appKey]); // eslint-disable-line react-hooks/exhaustive-deps

  const add = useAction(async () => {
    const { peer } = await adminApi.addSyncPeer(appKey, { name: form.name.trim(), url: form.url.trim(), key: form.key.trim(), secret: form.secret });
    setForm(EMPTY);
    setAdded(peer.name);
    await load.run();
    onChanged();
  });
  const remove = useAction(async (name: string) => {
    await adminApi.removeSyncPeer(appKey, name);
    setAdded(null);
    await load.run();
    onChanged();
  });
  const set = (field: keyof typeof EMPTY) => (e: ChangeEvent<HTMLInputElement>) => {
    add.setError(null);
    setForm((f) => ({ ...f, [field]: e.target.value }));
  };
  const complete = form.name.trim() && form.url.trim() && form.key.trim() && form.secret;

  return (
    <div className="stack" data-testid="admin-peers">
      <h3>{t('admin.peers.title')}</h3>
      {load.busy && !peers && <Busy />}
      <ErrorNotice error={load.error ?? remove.error} />
      {peers && peers.length > 0 && (
        <ul className="plain" data-testid="admin-peers-list">
          {peers.map((p) => (
            <li key={p.name} className="row" data-testid={`admin-peer-${p.name}`}>
              <span><b>{p.name}</b> <small className="muted">{p.url} · <code>{p.key}</code></small></span>
              {p.source === 'config'
                ? <small className="muted">{t('admin.peers.config')}</small>
                : (
                  <button type="button" className="btn btn-small" disabled={remove.busy} data-testid="admin-peer-remove"
                    onClick={() => { if (window.confirm(t('admin.peers.removeConfirm', { name: p.name }))) void remove.run(p.name); }}>{t('admin.peers.remove')}</button>
                )}
            </li>
          ))}
        </ul>
      )}
      <form className="stack" onSubmit={(e) => { e.preventDefault(); if (complete) void add.run(); }} data-testid="admin-peer-form">
        <p className="muted">{t('admin.peers.hint')}</p>
        <label className="field">
          <span>{t('admin.peers.name')}</span>
          <input value={form.name} onChange={set('name')} maxLength={64} autoComplete="off" data-testid="admin-peer-name" />
        </label>
        <label className="field">
          <span>{t('admin.syncPeer')}</span>
          <input type="url" value={form.url} onChange={set('url')} maxLength={500} placeholder="https://10.0.0.7:8443" autoComplete="off" data-testid="admin-peer-url" />
        </label>
        <label className="field">
          <span>{t('admin.syncKey')}</span>
          <input value={form.key} onChange={set('key')} maxLength={200} autoComplete="off" data-testid="admin-peer-key" />
        </label>
        <label className="field">
          <span>{t('admin.syncSecret')}</span>
          <input type="password" value={form.secret} onChange={set('secret')} maxLength={200} autoComplete="new-password" data-testid="admin-peer-secret" />
        </label>
        <button type="submit" className="btn btn-primary" disabled={!complete || add.busy} data-testid="admin-peer-add">{t('admin.peers.add')}</button>
      </form>
      {add.busy && <Busy />}
      <ErrorNotice error={add.error} />
      {added && !add.error && <Notice kind="success" title={t('admin.peers.added', { name: added })} testId="admin-peer-added" />}
    </div>
  );
}
