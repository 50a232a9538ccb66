import { useCallback, useEffect, useState } from 'react';
import { api, session, type ReadyStatus, type SyncStatus } from '../api.js';
import { Busy, ErrorNotice, Notice, Screen, useAction } from '../components/ui.js';
import { useI18n, type MessageKey } from '../i18n/index.js';

/**
 * Administration: the current application (applications themselves are managed with the CLI),
 * counts, dump export (every page of GET /face/dump saved as one JSON file), sync status and health.
 */
export function Admin({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [health, setHealth] = useState<{ process: string; ready: ReadyStatus | null } | null>(null);
  const [counts, setCounts] = useState<{ faces: number | null; fingers: number | null }>({ faces: null, fingers: null });
  const [exported, setExported] = useState<number | null>(null);
  const [sync, setSync] = useState<SyncStatus | null>(null);
  const [peer, setPeer] = useState({ url: '', key: '', secret: '' });

  const refresh = useCallback(async () => {
    const process = await api.health().then((h) => h.status, () => 'down');
    const ready = await api.ready().catch(() => null);
    setHealth({ process, ready });
    setCounts({ faces: await api.faceCount().catch(() => null), fingers: await api.fingerCount().catch(() => null) });
    setSync(await api.syncStatus().catch(() => null));
  }, []);
  useEffect(() => void refresh(), [refresh]);

  const exportDump = useAction(async () => {
    const faces: unknown[] = [];
    for (let page = 1; ; page++) {
      const { result } = await api.faceDump(page, 500);
      faces.push(...result.faces);
      if (result.faces.length === 0 || faces.length >= result.total_entries) break;
    }
    const blob = new Blob([JSON.stringify({ exportedAt: new Date().toISOString(), total_entries: faces.length, faces }, null, 2)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = `biostation-faces-${new Date().toISOString().slice(0, 10)}.json`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    setExported(faces.length);
  });

  const pull = useAction(async () => {
    await api.syncPull(peer.url.trim(), peer.key.trim(), peer.secret);
    setPeer((p) => ({ ...p, secret: '' }));
    await refresh();
  });
  const last = sync?.history[0];

  return (
    <Screen title={t('admin.title')} onBack={onBack}>
      <div className="cards">
        <article className="card">
          <h2>{t('admin.application')}</h2>
          <p><code data-testid="admin-appkey">{session.appKey() ?? '—'}</code></p>
          <p className="muted">{t('admin.applications.hint')}</p>
        </article>
        <article className="card">
          <h2>{t('admin.counts')}</h2>
          <p>{t('admin.faces')}: <b data-testid="admin-faces">{counts.faces ?? '—'}</b></p>
          <p>{t('admin.fingers')}: <b data-testid="admin-fingers">{counts.fingers ?? '—'}</b></p>
          <button type="button" className="btn btn-primary" onClick={() => void exportDump.run()} disabled={exportDump.busy} data-testid="admin-export">
            {t('admin.export')}
          </button>
          {exportDump.busy && <Busy />}
          <ErrorNotice error={exportDump.error} />
          {exported !== null && <Notice kind="success" title={t('admin.exported', { n: exported })} testId="admin-exported" />}
        </article>
        <article className="card" data-testid="admin-sync">
          <h2>{t('admin.sync')}</h2>
          <p data-testid="admin-sync-last">
            {sync?.lastSync
              ? t('admin.syncLast', { at: new Date(sync.lastSync.finishedAt).toLocaleString(), peer: sync.lastSync.peerUrl })
              : t('admin.syncNone')}
          </p>
          {last && (
            <p className="muted" data-testid="admin-sync-counts">
              {last.error ?? t('admin.syncCounts', { created: last.created, updated: last.updated, skipped: last.skipped })}
            </p>
          )}
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              void pull.run();
            }}
          >
            <label className="field">
              <span>{t('admin.syncPeer')}</span>
              <input type="url" required value={peer.url} placeholder="http://10.0.0.7:8080" onChange={(e) => setPeer({ ...peer, url: e.target.value })} data-testid="sync-peer" />
            </label>
            <label className="field">
              <span>{t('admin.syncKey')}</span>
              <input required value={peer.key} onChange={(e) => setPeer({ ...peer, key: e.target.value })} data-testid="sync-key" autoComplete="off" />
            </label>
            <label className="field">
              <span>{t('admin.syncSecret')}</span>
              <input type="password" required value={peer.secret} onChange={(e) => setPeer({ ...peer, secret: e.target.value })} data-testid="sync-secret" autoComplete="off" />
            </label>
            <button type="submit" className="btn btn-primary" disabled={pull.busy} data-testid="sync-pull">{t('admin.syncPull')}</button>
          </form>
          {pull.busy && <Busy />}
          <ErrorNotice error={pull.error} />
        </article>
        <article className="card" data-testid="admin-health">
          <h2>{t('admin.health')}</h2>
          {!health ? <Busy /> : (
            <ul className="plain">
              <li>{t('admin.process')}: <b className={health.process === 'ok' ? 'ok-text' : 'bad-text'}>{health.process}</b></li>
              {health.ready && (['face', 'finger', 'ocr'] as const).map((e) => (
                <li key={e}>{t(`engine.name.${e}` as MessageKey)}: <b className={`engine-${health.ready!.engines[e]}`}>{t(`engine.${health.ready!.engines[e]}` as MessageKey)}</b></li>
              ))}
            </ul>
          )}
          <button type="button" className="btn" onClick={() => void refresh()}>{t('admin.refresh')}</button>
        </article>
      </div>
    </Screen>
  );
}
