import { useI18n, type MessageKey } from '../i18n/index.js';

export type Route = 'home' | 'enroll' | 'verify' | 'identify' | 'compare' | 'document' | 'admin';

const TILES: Array<{ route: Route; icon: string }> = [
  { route: 'enroll', icon: '+' },
  { route: 'verify', icon: '✓' },
  { route: 'identify', icon: '?' },
  { route: 'compare', icon: '⇄' },
  { route: 'document', icon: '▤' },
  { route: 'admin', icon: '⚙' },
];

/** The clerk's menu: large tiles, reachable by Tab/Enter and by the digits 1..6. */
export function Home({ go }: { go: (r: Route) => void }) {
  const { t } = useI18n();
  return (
    <section className="screen" aria-labelledby="home-title">
      <h1 id="home-title">{t('home.title')}</h1>
      <div className="tiles">
        {TILES.map(({ route, icon }, i) => (
          <button key={route} type="button" className={`tile tile-${route}`} onClick={() => go(route)} data-testid={`tile-${route}`}>
            <span className="tile-icon" aria-hidden="true">{icon}</span>
            <span className="tile-title">{t(`home.${route}` as MessageKey)}</span>
            <span className="tile-sub">{t(`home.${route}.sub` as MessageKey)}</span>
            <kbd aria-hidden="true">{i + 1}</kbd>
          </button>
        ))}
      </div>
    </section>
  );
}

export const HOME_KEYS: Route[] = TILES.map((x) => x.route);
