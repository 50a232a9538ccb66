import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, installSessionPolicy, isStationUrl } from '../../main/csp.js';
import { createKioskWindow, kioskWindowOptions } from '../../main/window.js';
import { fakeElectron, FakeBrowserWindow } from './fake-electron.js';

const ORIGIN = 'http://127.0.0.1:4567';

describe('content security policy', () => {
  it('allows only the station origin for scripts and connections and forbids plugins and framing', () => {
    const csp = contentSecurityPolicy();
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('sets the CSP header on station responses only, replacing any the station sent', () => {
    const { session } = fakeElectron();
    installSessionPolicy(session as never, () => ORIGIN);
    const answer = session.headersFor(`${ORIGIN}/index.html`, { 'content-security-policy': ['default-src *'], 'x-a': ['1'] });
    expect(answer.responseHeaders['Content-Security-Policy']).toEqual([contentSecurityPolicy()]);
    expect(answer.responseHeaders['content-security-policy']).toBeUndefined();
    expect(answer.responseHeaders['x-a']).toEqual(['1']);
    expect(session.headersFor('https://example.com/')).toEqual({});
  });

  it('grants the camera and full screen to the station only, and never the microphone or other permissions', () => {
    const { session } = fakeElectron();
    installSessionPolicy(session as never, () => ORIGIN);
    expect(session.request('media', `${ORIGIN}/`, { mediaTypes: ['video'] })).toBe(true);
    expect(session.request('media', `${ORIGIN}/`, { mediaTypes: ['video', 'audio'] })).toBe(false);
    expect(session.request('fullscreen', `${ORIGIN}/`)).toBe(true);
    expect(session.request('geolocation', `${ORIGIN}/`)).toBe(false);
    expect(session.request('notifications', `${ORIGIN}/`)).toBe(false);
    expect(session.request('media', 'https://evil.example/', { mediaTypes: ['video'] })).toBe(false);
    expect(session.permissionCheck!(null, 'media', ORIGIN, {})).toBe(true);
    expect(session.permissionCheck!(null, 'media', 'http://127.0.0.1:1', {})).toBe(false);
    expect(session.permissionCheck!(null, 'usb', ORIGIN, {})).toBe(false);
  });

  it('compares whole origins', () => {
    expect(isStationUrl(`${ORIGIN}/a?b`, ORIGIN)).toBe(true);
    expect(isStationUrl('http://127.0.0.1:4568/', ORIGIN)).toBe(false);
    expect(isStationUrl('http://127.0.0.1:4567.evil.com/', ORIGIN)).toBe(false);
    expect(isStationUrl('not a url', ORIGIN)).toBe(false);
    expect(isStationUrl(`${ORIGIN}/`, null)).toBe(false);
  });
});

describe('kiosk window', () => {
  it('is full-screen kiosk with isolation, sandbox, no node and no devtools in production', () => {
    const o = kioskWindowOptions({ preloadPath: '/p/preload.cjs', dev: false });
    expect(o).toMatchObject({ kiosk: true, fullscreen: true, show: false, autoHideMenuBar: true });
    expect(o.webPreferences).toMatchObject({
      preload: '/p/preload.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
      devTools: false,
    });
  });

  it('allows devtools and a normal window in development', () => {
    const o = kioskWindowOptions({ preloadPath: '/p', dev: true });
    expect(o.kiosk).toBe(false);
    expect(o.webPreferences?.devTools).toBe(true);
  });

  it('keeps the page on the station: navigation elsewhere, redirects, popups and webviews are refused', () => {
    const { electron } = fakeElectron();
    const win = createKioskWindow(electron, { preloadPath: '/p', dev: false, getOrigin: () => ORIGIN }) as unknown as FakeBrowserWindow;
    const wc = win.webContents;
    expect(win.menu).toBeNull();
    expect(wc.fireCancellable('will-navigate', 'https://example.com/')).toBe(true);
    expect(wc.fireCancellable('will-navigate', `${ORIGIN}/admin`)).toBe(false);
    expect(wc.fireCancellable('will-redirect', 'file:///etc/passwd')).toBe(true);
    expect(wc.fireCancellable('will-attach-webview')).toBe(true);
    expect(wc.windowOpenHandler!({ url: `${ORIGIN}/x` })).toEqual({ action: 'deny' });
  });

  it('shows itself when ready, closes devtools in production and reloads a crashed page', () => {
    const { electron } = fakeElectron();
    const win = createKioskWindow(electron, { preloadPath: '/p', dev: false, getOrigin: () => ORIGIN }) as unknown as FakeBrowserWindow;
    expect(win.shown).toBe(false);
    win.emit('ready-to-show');
    expect(win.shown).toBe(true);
    win.webContents.emit('devtools-opened');
    expect(win.webContents.devToolsClosed).toBe(1);
    win.webContents.emit('render-process-gone', {}, { reason: 'crashed' });
    win.webContents.emit('render-process-gone', {}, { reason: 'clean-exit' });
    expect(win.webContents.reloads).toBe(1);
  });

  it('leaves devtools alone in development', () => {
    const { electron } = fakeElectron();
    const win = createKioskWindow(electron, { preloadPath: '/p', dev: true, getOrigin: () => ORIGIN }) as unknown as FakeBrowserWindow;
    win.webContents.emit('devtools-opened');
    expect(win.webContents.devToolsClosed).toBe(0);
  });
});
