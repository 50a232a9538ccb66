import { useCallback, useEffect, useRef, useState } from 'react';
import { session, setUnauthorizedHandler } from './api.js';
import { StatusBar } from './components/StatusBar.js';
import { useI18n } from './i18n/index.js';
import { Admin } from './screens/Admin.js';
import { Compare, Identify, Verify } from './screens/Decide.js';
import { Document } from './screens/Document.js';
import { Enroll } from './screens/Enroll.js';
import { HOME_KEYS, Home, type Route } from './screens/Home.js';
import { Login, Relogin } from './screens/Login.js';

const ROUTES: Route[] = ['home', 'enroll', 'verify', 'identify', 'compare', 'document', 'admin'];

function routeFromHash(): Route {
  const r = location.hash.replace(/^#\/?/, '') as Route;
  return ROUTES.includes(r) ? r : 'home';
}

/**
 * The kiosk shell: header (title, language, logout), the always-visible status bar, and the
 * current screen (hash routes, so the browser's back works headless). Keyboard: Escape goes home,
 * digits 1-6 open the home tiles.
 */
export function App() {
  const { t, lang, setLang } = useI18n();
  const [route, setRoute] = useState<Route>(routeFromHash);
  const [loggedIn, setLoggedIn] = useState(() => session.token() !== null);
  const loggedInRef = useRef(loggedIn);
  loggedInRef.current = loggedIn;
  const [refreshKey, setRefreshKey] = useState(0);
  /** Bumped by "Próximo cliente": every screen is mounted afresh, so nothing of the last customer stays. */
  const [visit, setVisit] = useState(0);
  /** Set while an expired session waits for the credential (the screens stay mounted underneath). */
  const [reauth, setReauth] = useState<((ok: boolean) => void) | null>(null);
  /** Large text and high contrast, remembered on this kiosk. */
  const [large, setLarge] = useState(() => localStorage.getItem('biostation.large') === '1');
  useEffect(() => {
    document.documentElement.classList.toggle('large-contrast', large);
    localStorage.setItem('biostation.large', large ? '1' : '0');
  }, [large]);

  const go = useCallback((r: Route) => {
    location.hash = r === 'home' ? '' : `/${r}`;
    setRoute(r);
  }, []);
  useEffect(() => {
    const onHash = () => setRoute(routeFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  useEffect(() => {
    setUnauthorizedHandler(() => (loggedInRef.current ? new Promise<boolean>((resolve) => setReauth(() => resolve)) : Promise.resolve(false)));
  }, []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
      if (e.key === 'Escape') go('home');
      else if (!typing && route === 'home' && /^[1-6]$/.test(e.key)) go(HOME_KEYS[Number(e.key) - 1]!);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go, route]);

  const back = () => go('home');
  const bump = () => setRefreshKey((k) => k + 1);
  const logout = () => {
    reauth?.(false);
    setReauth(null);
    session.clear();
    setLoggedIn(false);
  };
  const nextCustomer = () => {
    setVisit((v) => v + 1);
    go('home');
  };
  return (
    <div className="app">
      <header className="topbar">
        <button type="button" className="brand" onClick={back}>{t('app.title')}</button>
        <StatusBar refreshKey={refreshKey} />
        <div className="top-actions">
          <button type="button" className="btn btn-ghost" aria-pressed={large} onClick={() => setLarge((v) => !v)} data-testid="large-text" title={t('app.largeText')}>
            {t('app.largeTextShort')}
          </button>
          <button type="button" className="btn btn-ghost" onClick={() => setLang(lang === 'pt-BR' ? 'en' : 'pt-BR')} data-testid="lang">
            {t('app.language')}
          </button>
          {loggedIn && (
            <button type="button" className="btn btn-next" onClick={nextCustomer} data-testid="next-customer">
              {t('app.nextCustomer')}
            </button>
          )}
          {loggedIn && (
            <button type="button" className="btn btn-ghost" onClick={logout}>
              {t('app.logout')}
            </button>
          )}
        </div>
      </header>
      {reauth && (
        <Relogin
          onDone={() => {
            reauth(true);
            setReauth(null);
            bump();
          }}
          onLogout={logout}
        />
      )}
      <main className="content" key={visit} aria-hidden={reauth ? true : undefined}>
        {!loggedIn ? (
          <Login onDone={() => { setLoggedIn(true); bump(); }} />
        ) : route === 'enroll' ? (
          <Enroll onBack={back} onEnrolled={bump} />
        ) : route === 'verify' ? (
          <Verify onBack={back} />
        ) : route === 'identify' ? (
          <Identify onBack={back} />
        ) : route === 'compare' ? (
          <Compare onBack={back} />
        ) : route === 'document' ? (
          <Document onBack={back} />
        ) : route === 'admin' ? (
          <Admin onBack={back} />
        ) : (
          <Home go={go} />
        )}
      </main>
    </div>
  );
}
