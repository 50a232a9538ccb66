import { useEffect, useState } from 'react';
import { api, type ReadyStatus } from '../api.js';
import { useI18n, type MessageKey } from '../i18n/index.js';
import { useReaders } from './useReaders.js';

interface Snapshot {
  online: boolean;
  ready: ReadyStatus | null;
  people: number | null;
  /** finishedAt of the application's latest successful pull from a peer station. */
  lastSync: string | null;
}

/**
 * Always-visible station status: station up or not, engines, readers attached (live), people
 * enrolled (faces of this application), last sync. Refreshed every 5 s and after each change.
 */
export function StatusBar({ refreshKey }: { refreshKey: number }) {
  const { t } = useI18n();
  const [snap, setSnap] = useState<Snapshot>({ online: false, ready: null, people: null, lastSync: null });
  const { readers } = useReaders();

  useEffect(() => {
    let alive = true;
    const load = async () => {
      const online = await api.health().then(() => true, () => false);
      const ready = online ? await api.ready().catch(() => null) : null;
      const people = online ? await api.faceCount().catch(() => null) : null;
      const lastSync = online ? await api.syncStatus().then((s) => s.lastSync?.finishedAt ?? null, () => null) : null;
      if (alive) setSnap({ online, ready, people, lastSync });
    };
    void load();
    const timer = setInterval(() => void load(), 5000);
    return () => {
      alive = false;
      clearInterval(timer);
    };
  }, [refreshKey]);

  const sync = snap.lastSync;
  return (
    <dl className="statusbar" data-testid="statusbar" aria-label={t('status.station')}>
      <div>
        <dt>{t('status.station')}</dt>
        <dd className={snap.online ? 'ok' : 'bad'}>● {snap.online ? t('status.online') : t('status.offline')}</dd>
      </div>
      {snap.ready && (
        <div>
          <dt>{t('status.engines')}</dt>
          <dd>
            {(['face', 'finger', 'ocr'] as const).map((e) => (
              <span key={e} className={`engine engine-${snap.ready!.engines[e]}`}>
                {t(`engine.name.${e}` as MessageKey)} {t(`engine.${snap.ready!.engines[e]}` as MessageKey)}
              </span>
            ))}
          </dd>
        </div>
      )}
      <div>
        <dt>{t('status.readers')}</dt>
        <dd data-testid="status-readers">{readers.length ? readers.map((r) => r.name).join(', ') : t('status.noReaders')}</dd>
      </div>
      <div>
        <dt>{t('status.people')}</dt>
        <dd data-testid="status-people">{snap.people ?? '—'}</dd>
      </div>
      <div>
        <dt>{t('status.lastSync')}</dt>
        <dd data-testid="status-lastsync">{sync ? new Date(sync).toLocaleString() : t('status.never')}</dd>
      </div>
    </dl>
  );
}
