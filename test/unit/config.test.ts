import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/runtime/config.js';

describe('configuration', () => {
  it('defaults, then file, then environment, then overrides', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-config-'));
    const file = path.join(dir, 'c.json');
    writeFileSync(file, JSON.stringify({ port: 9000, tokenTtlSeconds: 600, host: '0.0.0.0' }));
    const config = loadConfig({ BIOSTATION_CONFIG: file, BIOSTATION_PORT: '9100', BIOSTATION_DATA_DIR: dir }, { host: '::1' });
    expect(config).toMatchObject({ port: 9100, tokenTtlSeconds: 600, host: '::1', dataDir: dir, logLevel: 'info' });
  });

  it('names the key of an invalid value', () => {
    expect(() => loadConfig({ BIOSTATION_PORT: 'eighty' })).toThrow(/\/port/);
    expect(() => loadConfig({ BIOSTATION_PORT: '70000' })).toThrow(ConfigError);
    expect(() => loadConfig({ BIOSTATION_LOG_LEVEL: 'loud' })).toThrow(/logLevel/);
  });

  it('explains an unreadable or malformed file', () => {
    expect(() => loadConfig({ BIOSTATION_CONFIG: '/nonexistent/biostation.json' })).toThrow(/cannot read configuration file/);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bs-config-'));
    writeFileSync(path.join(dir, 'bad.json'), '[1,2]');
    expect(() => loadConfig({ BIOSTATION_CONFIG: path.join(dir, 'bad.json') })).toThrow(/JSON object/);
  });
});
