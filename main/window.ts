import type { BrowserWindowConstructorOptions } from 'electron';
import { isStationUrl } from './csp.js';
import type { ElectronLike, KioskWindow } from './electron-like.js';

/** How the kiosk window is built. */
export interface KioskWindowOptions {
  /** Absolute path of the compiled preload script (preload.cjs). */
  preloadPath: string;
  /** Development mode: a normal window and devtools allowed. Never in a packaged build. */
  dev: boolean;
}

/**
 * The BrowserWindow options of the kiosk: full screen and kiosk mode, no menu bar, context
 * isolation and the renderer sandbox on, no Node integration, devtools only in development.
 */
export function kioskWindowOptions({ preloadPath, dev }: KioskWindowOptions): BrowserWindowConstructorOptions {
  return {
    show: false,
    fullscreen: !dev,
    kiosk: !dev,
    width: 1280,
    height: 800,
    autoHideMenuBar: true,
    backgroundColor: '#0f172a',
    title: 'Biostation',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      devTools: dev,
      spellcheck: false,
      navigateOnDragDrop: false,
    },
  };
}

/**
 * Creates the kiosk window and locks its page to the station: navigation elsewhere and new windows
 * are refused, devtools are closed if they open in production, a crashed renderer is reloaded.
 * The window is shown once its first paint is ready.
 */
export function createKioskWindow(
  electron: Pick<ElectronLike, 'BrowserWindow'>,
  options: KioskWindowOptions & { getOrigin: () => string | null },
): KioskWindow {
  const win = new electron.BrowserWindow(kioskWindowOptions(options));
  win.setMenu(null);
  win.once('ready-to-show', () => {
    win.show();
    win.focus();
  });
  const contents = win.webContents;
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-navigate', (event, url) => {
    if (!isStationUrl(url, options.getOrigin())) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isStationUrl(url, options.getOrigin())) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  if (!options.dev) contents.on('devtools-opened', () => contents.closeDevTools());
  contents.on('render-process-gone', (_event, details) => {
    if (details.reason !== 'clean-exit' && !contents.isDestroyed()) contents.reload();
  });
  return win;
}
