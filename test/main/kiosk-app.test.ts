import { describe, expect, it } from 'vitest';
import { runKiosk, statusPage, type KioskDeps } from '../../main/kiosk-app.js';
import type { StationConfig, StationHandle } from '../../main/types.js';
import { fakeElectron } from './fake-electron.js';

function setup(options: { failStart?: boolean; packaged?: boolean; env?: Record<string, string> } = {}) {
  const fake = fakeElectron();
  fake.app.isPackaged = options.packaged ?? true;
  const configs: StationConfig[] = [];
  const handles: Array<StationHandle & { closes: number; crash(): void }> = [];
  const signals = new Map<string, () => void>();
  const readers = { started: 0, closed: 0 };
  const deps: KioskDeps = {
    electron: fake.electron,
    loadStation: async () => async (config) => {
      configs.push(config);
      if (options.failStart) throw new Error('database is locked');
      let crash!: () => void;
      const closed = new Promise<void>((r) => (crash = r));
      const handle = { url: `http://127.0.0.1:${config.port || 45000}`, closes: 0, closed, crash, close: async () => void (handle.closes += 1) };
      handles.push(handle);
      return handle;
    },
    readers: {
      list: () => [],
      capture: async () => {
        throw new Error('no reader');
      },
      onEvent: () => () => undefined,
      start: async () => void (readers.started += 1),
      close: async () => void (readers.closed += 1),
    },
    preloadPath: '/app/main/dist/main/preload.cjs',
    env: options.env ?? {},
    onSignal: (signal, handler) => void signals.set(signal, handler),
    supervisor: { probeIntervalMs: 0, backoffMs: [1], maxAttempts: 2 },
  };
  return { ...fake, deps, configs, handles, signals, readers };
}

describe('kiosk app', () => {
  it('quits at once when another instance holds the lock', async () => {
    const t = setup();
    t.app.lock = false;
    expect(await runKiosk(t.deps)).toBeNull();
    expect(t.app.quits).toBe(1);
    expect(t.windows).toHaveLength(0);
    expect(t.configs).toHaveLength(0);
  });

  it('starts the station on loopback, removes the menu and opens one kiosk window on its URL', async () => {
    const t = setup({ env: { BIOSTATION_DATA_DIR: '/var/lib/biostation' } });
    const kiosk = await runKiosk(t.deps);
    expect(kiosk).not.toBeNull();
    expect(t.menus).toEqual([null]);
    expect(t.configs).toEqual([{ dataDir: '/var/lib/biostation', host: '127.0.0.1', port: 0 }]);
    expect(t.windows).toHaveLength(1);
    const win = t.windows[0]!;
    expect(win.options.kiosk).toBe(true);
    expect(win.options.webPreferences).toMatchObject({ sandbox: true, contextIsolation: true, devTools: false, preload: '/app/main/dist/main/preload.cjs' });
    expect(win.loaded).toHaveLength(2);
    expect(decodeURIComponent(win.loaded[0]!)).toContain('Iniciando a estação');
    expect(win.loaded[1]).toBe('http://127.0.0.1:45000');
    expect(t.readers.started).toBe(1);
    expect([...t.ipcMain.handlers.keys()]).toHaveLength(4);
    expect(t.session.headersFor('http://127.0.0.1:45000/').responseHeaders['Content-Security-Policy']).toBeDefined();
    await kiosk!.shutdown();
  });

  it('uses userData for the data folder and BIOSTATION_PORT for the port', async () => {
    const t = setup({ env: { BIOSTATION_PORT: '8090' } });
    const kiosk = await runKiosk(t.deps);
    expect(t.configs[0]).toEqual({ dataDir: '/fake/userData/data', host: '127.0.0.1', port: 8090 });
    await kiosk!.shutdown();
  });

  it('allows devtools only in an unpackaged build with BIOSTATION_DEV=1', async () => {
    const packaged = setup({ packaged: true, env: { BIOSTATION_DEV: '1' } });
    await runKiosk(packaged.deps);
    expect(packaged.windows[0]!.options.webPreferences.devTools).toBe(false);
    const dev = setup({ packaged: false, env: { BIOSTATION_DEV: '1' } });
    await runKiosk(dev.deps);
    expect(dev.windows[0]!.options.webPreferences.devTools).toBe(true);
  });

  it('focuses (and restores) the existing window when a second instance starts', async () => {
    const t = setup();
    await runKiosk(t.deps);
    const win = t.windows[0]!;
    win.minimized = true;
    const before = win.focused;
    t.app.emit('second-instance');
    expect(win.restored).toBe(1);
    expect(win.focused).toBe(before + 1);
    expect(t.windows).toHaveLength(1);
  });

  it('restarts a crashed station and keeps the window on it', async () => {
    const t = setup();
    const kiosk = await runKiosk(t.deps);
    t.handles[0]!.crash();
    await new Promise((r) => setTimeout(r, 20));
    expect(t.configs.map((c) => c.port)).toEqual([0, 45000]);
    expect(kiosk!.supervisor.status()).toMatchObject({ state: 'running', restarts: 1 });
    expect(t.windows[0]!.loaded.slice(1)).toEqual(['http://127.0.0.1:45000']);
    await kiosk!.shutdown();
  });

  it('shuts down cleanly before quitting: readers, IPC and station closed, then quit', async () => {
    const t = setup();
    await runKiosk(t.deps);
    t.app.quit();
    expect(t.app.quits).toBe(0);
    await new Promise((r) => setTimeout(r, 10));
    expect(t.readers.closed).toBe(1);
    expect(t.handles[0]!.closes).toBe(1);
    expect(t.ipcMain.handlers.size).toBe(0);
    expect(t.app.quits).toBe(1);
  });

  it('quits on SIGTERM and SIGINT, and when the window is closed', async () => {
    const t = setup();
    await runKiosk(t.deps);
    expect([...t.signals.keys()].sort()).toEqual(['SIGINT', 'SIGTERM']);
    t.signals.get('SIGTERM')!();
    await new Promise((r) => setTimeout(r, 10));
    expect(t.app.quits).toBe(1);
    t.app.emit('window-all-closed');
    expect(t.app.quits).toBe(2);
  });

  it('shows a failure page when the station cannot start at all', async () => {
    const t = setup({ failStart: true });
    const kiosk = await runKiosk(t.deps);
    const win = t.windows[0]!;
    expect(win.loaded).toHaveLength(2);
    expect(win.loaded[1]).toMatch(/^data:text\/html/);
    expect(decodeURIComponent(win.loaded[1]!)).toContain('database is locked');
    expect(win.shown).toBe(true);
    expect(kiosk!.supervisor.status().state).toBe('failed');
  });

  it('escapes the error text of the failure page', () => {
    expect(decodeURIComponent(statusPage('t', 's', '<script>x</script>'))).not.toContain('<script>x');
  });

  it('retries loading the station sources and shows the failure when they never load', async () => {
    const t = setup();
    let loads = 0;
    t.deps.loadStation = async () => {
      loads += 1;
      throw new Error('Cannot find module src/station.ts');
    };
    const kiosk = await runKiosk(t.deps);
    expect(loads).toBe(2);
    expect(kiosk!.supervisor.status()).toMatchObject({ state: 'failed', lastError: 'Cannot find module src/station.ts' });
    expect(decodeURIComponent(t.windows[0]!.loaded[1]!)).toContain('Cannot find module');
  });
});

describe('kiosk app after a restart on another port', () => {
  it('follows the station to its new origin', async () => {
    const t = setup();
    let port = 45000;
    t.deps.loadStation = async () => async (config) => {
      t.configs.push(config);
      let crash!: () => void;
      const closed = new Promise<void>((r) => (crash = r));
      const handle = { url: `http://127.0.0.1:${port++}`, closes: 0, closed, crash, close: async () => void (handle.closes += 1) };
      t.handles.push(handle);
      return handle;
    };
    const kiosk = await runKiosk(t.deps);
    t.handles[0]!.crash();
    await new Promise((r) => setTimeout(r, 20));
    expect(t.windows[0]!.loaded.slice(1)).toEqual(['http://127.0.0.1:45000', 'http://127.0.0.1:45001']);
    expect(t.session.headersFor('http://127.0.0.1:45001/').responseHeaders['Content-Security-Policy']).toBeDefined();
    expect(t.session.headersFor('http://127.0.0.1:45000/')).toEqual({});
    await kiosk!.shutdown();
  });
});
