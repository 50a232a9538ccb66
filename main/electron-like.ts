/**
 * The slice of the `electron` module that main/ uses. main.ts passes the real module; tests pass a
 * fake. Typed with Electron's own types so the real module is checked against it at compile time.
 */
import type { App, BrowserWindow, BrowserWindowConstructorOptions, IpcMain, Menu, Session, WebContents } from 'electron';
import type { SafeStorageLike } from './master-key.js';

export type KioskWindow = Pick<
  BrowserWindow,
  'loadURL' | 'show' | 'focus' | 'restore' | 'isMinimized' | 'isDestroyed' | 'once' | 'on' | 'close' | 'destroy' | 'setMenu'
> & {
  webContents: KioskWebContents;
};

export type KioskWebContents = Pick<
  WebContents,
  'on' | 'setWindowOpenHandler' | 'send' | 'closeDevTools' | 'reload' | 'getURL' | 'isDestroyed'
>;

export interface ElectronLike {
  app: Pick<App, 'requestSingleInstanceLock' | 'on' | 'once' | 'quit' | 'exit' | 'whenReady' | 'getPath' | 'isPackaged'>;
  BrowserWindow: new (options: BrowserWindowConstructorOptions) => KioskWindow;
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  Menu: Pick<typeof Menu, 'setApplicationMenu'>;
  session: { defaultSession: KioskSession };
  /** Seals the station master key (master-key.ts); absent in fakes that do not test it (the station then keeps its key file). */
  safeStorage?: SafeStorageLike;
}

export type KioskSession = {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
} & Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'>;
