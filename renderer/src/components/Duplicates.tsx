import type { Duplicate } from '../api.js';
import { useI18n } from '../i18n/index.js';

/**
 * Persons already enrolled whom this customer's face or fingerprint matched (de-duplication): each
 * identifier with the modality, in plain words. Scores are kept out of sight (the match is already
 * at or above the application's 1:N threshold).
 */
export function DuplicateList({ items, title, testId }: { items: Duplicate[]; title: string; testId: string }) {
  const { t } = useI18n();
  if (items.length === 0) return null;
  return (
    <div className="notice notice-warn" role="alert" data-testid={testId}>
      <strong className="notice-title">{title}</strong>
      <ul className="outcomes">
        {items.map((d) => (
          <li key={`${d.modality}:${d.extId}`} data-testid={`${testId}-item`}>
            <b>{d.extId}</b> · {t(d.modality === 'face' ? 'dedup.byFace' : 'dedup.byFinger')}
          </li>
        ))}
      </ul>
      <p>{t('dedup.advice')}</p>
    </div>
  );
}

/** Merges candidate lists: one entry per person and modality, the best score kept. */
export function mergeDuplicates(lists: Duplicate[][], exclude: string): Duplicate[] {
  const best = new Map<string, Duplicate>();
  for (const d of lists.flat()) {
    if (d.extId === exclude) continue;
    const key = `${d.modality}:${d.extId}`;
    const seen = best.get(key);
    if (!seen || d.score > seen.score) best.set(key, d);
  }
  return [...best.values()].sort((a, b) => b.score - a.score);
}
