import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): any };
const config = yaml.load(readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8'));

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, log: unknown): Promise<void>;
    };
    const quiet = { info() {}, warn() {}, debug() {} };
    await expect(validateConfiguration(config, quiet)).resolves.toBeUndefined();
  });

  it('packages Linux AppImage and deb, Windows NSIS, with the kiosk entry point and the built UI', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.win.target.map((t: { target: string }) => t.target)).toEqual(['nsis']);
    expect(config.extraMetadata.main).toBe('main/dist/main/main.js');
    expect(config.files).toEqual(expect.arrayContaining(['main/dist/**', 'renderer/dist/**', 'src/**', 'native/**']));
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { main: string };
    expect(pkg.main).toBe(config.extraMetadata.main);
  });
});
