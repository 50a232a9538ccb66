import path from 'node:path';
import { installSessionPolicy } from './csp.js';
import { kioskMasterKey } from './master-key.js';
import type { ElectronLike, KioskWindow } from './electron-like.js';
import { forwardEvents, registerIpc, type ReaderSource } from './ipc.js';
import { StationSupervisor, type SupervisorOptions } from './station-supervisor.js';
import type { StartStation } from './types.js';
import { createKioskWindow } from './window.js';

/** Everything the kiosk needs from outside; main.ts passes the real ones, tests pass fakes. */
export interface KioskDeps {
  electron: ElectronLike;
  /** Resolves `startStation` of src/station.ts (loaded lazily so the window logic stays testable). */
  loadStation: () => Promise<StartStation>;
  readers: ReaderSource & { start(): Promise<void>; close(): Promise<void> };
  preloadPath: string;
  env: Record<string, string | undefined>;
  /** Registers a process signal handler (process.on). */
  onSignal: (signal: 'SIGINT' | 'SIGTERM', handler: () => void) => void;
  supervisor?: Partial<Omit<SupervisorOptions, 'startStation' | 'config'>>;
  log?: (message: string) => void;
}

/** A running kiosk. */
export interface Kiosk {
  supervisor: StationSupervisor;
  window(): KioskWindow | null;
  /** Closes readers, IPC and the station; the app then quits. */
  shutdown(): Promise<void>;
}

/**
 * Runs the kiosk: single-instance lock (a second launch focuses the first window and exits), no
 * application menu, the station service started in-process on loopback under a supervisor, the
 * session's CSP and permission policy, the IPC bridge, and one locked-down full-screen window on the
 * station's URL. Quitting (window closed, SIGINT/SIGTERM) waits for a clean shutdown first.
 * Resolves null when another instance holds the lock.
 */
export async function runKiosk(deps: KioskDeps): Promise<Kiosk | null> {
  const { app, Menu, session, ipcMain } = deps.electron;
  const log = deps.log ?? (() => undefined);
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const dev = !app.isPackaged && deps.env.BIOSTATION_DEV === '1';
  let win: KioskWindow | null = null;
  let origin: string | null = null;
  const getOrigin = () => origin;

  Menu.setApplicationMenu(null);
  app.on('second-instance', () => {
    if (!win || win.isDestroyed()) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  app.on('window-all-closed', () => app.quit());

  await app.whenReady();
  const dataDir = deps.env.BIOSTATION_DATA_DIR ?? path.join(app.getPath('userData'), 'data');
  // After ready: safeStorage answers only then. A sealed key that does not open stops the start here.
  const masterKey = kioskMasterKey({ safeStorage: deps.electron.safeStorage, dataDir, env: deps.env });
  log(masterKey.note);
  // Loaded on the first start attempt, so a failure to load is retried and shown like any start failure.
  let loading: Promise<StartStation> | null = null;
  const supervisor = new StationSupervisor({
    ...deps.supervisor,
    log,
    startStation: async (config) => {
      loading ??= deps.loadStation().catch((e: unknown) => {
        loading = null;
        throw e;
      });
      return (await loading)(config);
    },
    config: {
      dataDir,
      host: '127.0.0.1',
      port: Number(deps.env.BIOSTATION_PORT ?? 0),
      ...(masterKey.masterKey ? { masterKey: masterKey.masterKey } : {}),
    },
  });

  let closed = false;
  let shutdownPromise: Promise<void> | null = null;
  const disposers: Array<() => void> = [];
  const shutdown = (): Promise<void> => {
    shutdownPromise ??= (async () => {
      for (const dispose of disposers.splice(0)) dispose();
      await Promise.allSettled([deps.readers.close(), supervisor.stop()]);
      closed = true;
    })();
    return shutdownPromise;
  };
  app.on('before-quit', (event) => {
    if (closed) return;
    event.preventDefault();
    void shutdown().then(() => app.quit());
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) deps.onSignal(signal, () => app.quit());

  installSessionPolicy(session.defaultSession, getOrigin);
  disposers.push(registerIpc(ipcMain, { supervisor, readers: deps.readers, getOrigin }));
  disposers.push(forwardEvents({ supervisor, readers: deps.readers }, () => (win && !win.isDestroyed() ? win.webContents : null)));
  await deps.readers.start().catch((e: unknown) => log(`readers failed to start: ${String(e)}`));

  win = createKioskWindow(deps.electron, { preloadPath: deps.preloadPath, dev, getOrigin });
  win.on('closed', () => {
    win = null;
  });
  await win.loadURL(statusPage('Iniciando a estação…', 'Starting the station…'));
  try {
    const url = await supervisor.start();
    origin = new URL(url).origin;
    await win.loadURL(url);
  } catch (e) {
    log(`station failed: ${String(e)}`);
    await win.loadURL(statusPage('A estação não pôde iniciar', 'The station could not start.', String(e)));
    win.show();
  }
  // A restart normally keeps the port; if it had to move, follow it.
  disposers.push(
    supervisor.onStatus((status) => {
      if (status.state !== 'running' || !status.url || !win || win.isDestroyed()) return;
      if (new URL(status.url).origin === origin) return;
      origin = new URL(status.url).origin;
      win.loadURL(status.url).catch((e: unknown) => log(`reload on ${status.url} failed: ${String(e)}`));
    }),
  );
  return { supervisor, window: () => win, shutdown };
}

/**
 * A self-contained page (data: URL) shown while the station starts or when it cannot start at all:
 * a pt-BR title, an English line and optional details (escaped).
 */
export function statusPage(title: string, subtitle: string, details = ''): string {
  const esc = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const html = `<!doctype html><meta charset="utf-8"><title>Biostation</title><body style="font:24px sans-serif;background:#0f172a;color:#f8fafc;padding:48px"><h1>${esc(title)}</h1><p>${esc(subtitle)}</p><pre style="white-space:pre-wrap;font-size:16px">${esc(details)}</pre></body>`;
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`;
}
