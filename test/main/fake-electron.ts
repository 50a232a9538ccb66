/**
 * A fake `electron` module for main/'s unit tests: records what main/ does (windows created,
 * handlers registered, menus, permission and header hooks) and lets tests fire app events.
 */
import { EventEmitter } from 'node:events';
import type { ElectronLike } from '../../main/electron-like.js';

export class FakeWebContents extends EventEmitter {
  url = '';
  destroyed = false;
  sent: Array<{ channel: string; args: unknown[] }> = [];
  windowOpenHandler: ((details: { url: string }) => { action: string }) | null = null;
  devToolsClosed = 0;
  reloads = 0;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: string }): void {
    this.windowOpenHandler = handler;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  closeDevTools(): void {
    this.devToolsClosed += 1;
  }
  reload(): void {
    this.reloads += 1;
  }
  getURL(): string {
    return this.url;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  /** Emits a cancellable navigation-like event; returns true when main/ prevented it. */
  fireCancellable(name: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

export class FakeBrowserWindow extends EventEmitter {
  static instances: FakeBrowserWindow[] = [];
  readonly webContents = new FakeWebContents();
  loaded: string[] = [];
  shown = false;
  focused = 0;
  minimized = false;
  restored = 0;
  destroyed = false;
  menu: unknown = 'default';
  constructor(readonly options: Record<string, any>) {
    super();
    FakeBrowserWindow.instances.push(this);
  }
  async loadURL(url: string): Promise<void> {
    this.loaded.push(url);
    this.webContents.url = url;
  }
  show(): void {
    this.shown = true;
  }
  focus(): void {
    this.focused += 1;
  }
  restore(): void {
    this.restored += 1;
    this.minimized = false;
  }
  isMinimized(): boolean {
    return this.minimized;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  setMenu(menu: unknown): void {
    this.menu = menu;
  }
  close(): void {
    this.destroyed = true;
    this.emit('closed');
  }
  destroy(): void {
    this.close();
  }
}

export class FakeApp extends EventEmitter {
  lock = true;
  isPackaged = false;
  quits = 0;
  exits: number[] = [];
  requestSingleInstanceLock(): boolean {
    return this.lock;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  getPath(name: string): string {
    return `/fake/${name}`;
  }
  /** Like Electron: emits before-quit (cancellable); quits when nobody prevented it. */
  quit(): void {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) this.quits += 1;
  }
  exit(code = 0): void {
    this.exits.push(code);
  }
}

export class FakeIpcMain {
  handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  handle(channel: string, fn: (event: unknown, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, fn);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** Calls a handler as a frame at `url` would. */
  async invoke(channel: string, url: string, ...args: unknown[]): Promise<unknown> {
    const fn = this.handlers.get(channel);
    if (!fn) throw new Error(`no handler for ${channel}`);
    return fn({ senderFrame: { url } }, ...args);
  }
}

export class FakeSession {
  headersListener: ((details: any, cb: (r: any) => void) => void) | null = null;
  permissionRequest: ((wc: any, permission: string, cb: (ok: boolean) => void, details: any) => void) | null = null;
  permissionCheck: ((wc: any, permission: string, origin: string, details: any) => boolean) | null = null;
  webRequest = {
    onHeadersReceived: (listener: (details: any, cb: (r: any) => void) => void) => {
      this.headersListener = listener;
    },
  };
  setPermissionRequestHandler(handler: FakeSession['permissionRequest']): void {
    this.permissionRequest = handler;
  }
  setPermissionCheckHandler(handler: FakeSession['permissionCheck']): void {
    this.permissionCheck = handler;
  }
  /** Runs the header hook; returns what it answered. */
  headersFor(url: string, responseHeaders: Record<string, string[]> = {}): any {
    let answer: any;
    this.headersListener!({ url, responseHeaders }, (r) => (answer = r));
    return answer;
  }
  /** Runs the permission request hook; returns the decision. */
  request(permission: string, requestingUrl: string, extra: Record<string, unknown> = {}): boolean {
    let granted: boolean | undefined;
    this.permissionRequest!({ getURL: () => requestingUrl }, permission, (ok) => (granted = ok), { requestingUrl, ...extra });
    return granted!;
  }
}

/** A fresh fake electron module plus handles on its parts. */
export function fakeElectron() {
  FakeBrowserWindow.instances = [];
  const app = new FakeApp();
  const ipcMain = new FakeIpcMain();
  const session = new FakeSession();
  const menus: unknown[] = [];
  const module = {
    app,
    BrowserWindow: FakeBrowserWindow,
    ipcMain,
    Menu: { setApplicationMenu: (menu: unknown) => void menus.push(menu) },
    session: { defaultSession: session },
  };
  return { electron: module as unknown as ElectronLike, app, ipcMain, session, menus, windows: FakeBrowserWindow.instances };
}
