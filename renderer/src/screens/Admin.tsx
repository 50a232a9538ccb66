import { useCallback, useEffect, useState } from 'react';
import { adminApi, api, session, type ReadyStatus, type SyncStatus } from '../api.js';
import { AdminApplications, AdminUnlock } from '../components/AdminApplications.js';
import { AdminSyncPeers } from '../components/AdminSyncPeers.js';
import { Busy, ErrorNotice, Notice, Screen, useAction } from '../components/ui.js';
import { useI18n, type MessageKey } from '../i18n/index.js';

/**
 * Administration, behind the station-admin secret (never the application's credential): the
 * station's applications (list, create, disable, new secret, de-duplication), counts, dump export
 * (every page of GET /face/dump saved as one JSON file), sync status, the application's sync peers
 * (added and removed here, AdminSyncPeers) and health.
 */
export function Admin({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  const [unlocked, setUnlocked] = useState(() => adminApi.token() !== null);
  if (!unlocked) {
    return (
      <Screen title={t('admin.title')} onBack={onBack}>
        <AdminUnlock onUnlocked={() => setUnlocked(true)} />
      </Screen>
    );
  }
  return <AdminPanel onBack={onBack} onLocked={() => setUnlocked(false)} />;
}

function AdminPanel({ onBack, onLocked }: { onBack: () => void; onLocked: () => void }) {
  const { t } = useI18n();
  const [health, setHealth] = useState<{ process: string; ready: ReadyStatus | null } | null>(null);
  const [counts, setCounts] = useState<{ faces: number | null; fingers: number | null }>({ faces: null, fingers: null });
  const [exported, setExported] = useState<number | null>(null);
  const [sync, setSync] = useState<SyncStatus | null>(null);

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

  const syncRun = useAction(async (direction: 'pull' | 'push', peer: string) => {
    await api.syncRun(direction, peer);
    await refresh();
  });
  const last = sync?.history[0];

  return (
    <Screen title={t('admin.title')} onBack={onBack}>
      <div className="row">
        <span className="muted">{t('admin.application')}: <code data-testid="admin-appkey">{session.appKey() ?? '—'}</code></span>
        <button type="button" className="btn btn-ghost" onClick={() => void adminApi.lock().then(onLocked)} data-testid="admin-lock">{t('admin.lock')}</button>
      </div>
      <div className="cards">
        <AdminApplications onLocked={onLocked} />
        {/* Left column: counts and health stacked; right: the (taller) sync card. */}
        <div className="card-stack">
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
        <article className="card" data-testid="admin-sync">
          <h2>{t('admin.sync')}</h2>
          <p data-testid="admin-sync-last">
            {sync?.lastSync
              ? t('admin.syncLast', { at: new Date(sync.lastSync.finishedAt).toLocaleString(), peer: sync.lastSync.peerUrl })
              : t('admin.syncNone')}
          </p>
          {last && (
            <p className="muted" data-testid="admin-sync-counts">
              {last.error ?? t('admin.syncCounts', { created: last.created, updated: last.updated, deleted: last.deleted ?? 0, skipped: last.skipped, refused: last.refused ?? 0 })}
            </p>
          )}
          {sync && (sync.peers ?? []).length === 0 && <p className="muted" data-testid="admin-sync-nopeer">{t('admin.syncNoPeer')}</p>}
          {(sync?.peers ?? []).map((p) => (
            <div key={p.name} className="row" data-testid={`admin-sync-peer-${p.name}`}>
              <span><b>{p.name}</b> <small className="muted">{p.url}</small></span>
              <button type="button" className="btn btn-primary" disabled={syncRun.busy} onClick={() => void syncRun.run('pull', p.name)} data-testid="sync-pull">{t('admin.syncPull')}</button>
              <button type="button" className="btn" disabled={syncRun.busy} onClick={() => void syncRun.run('push', p.name)} data-testid="sync-push">{t('admin.syncPush')}</button>
            </div>
          ))}
          {syncRun.busy && <Busy />}
          <ErrorNotice error={syncRun.error} />
          {session.appKey() && <AdminSyncPeers appKey={session.appKey()!} onChanged={() => void refresh()} />}
        </article>
      </div>
    </Screen>
  );
}
