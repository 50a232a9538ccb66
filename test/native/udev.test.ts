import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { DRIVERS, usbIdString } from '../../native/drivers/index.js';
import { udevRules } from '../../native/udev.js';

const require = createRequire(import.meta.url);
const yaml = require('js-yaml') as { load(text: string): any };

describe('udev rule for the USB readers', () => {
  const shipped = readFileSync(new URL('../../native/udev/70-biostation-readers.rules', import.meta.url), 'utf8');

  it('the shipped file is the one generated from the driver table (regenerate with udevRules())', () => {
    expect(shipped).toBe(udevRules());
  });

  it('grants every supported vendor:product id, one rule per line, comments on their own lines', () => {
    for (const d of DRIVERS) {
      for (const { vendorId, productId } of d.devices) {
        const [v, p] = usbIdString(vendorId, productId).split(':');
        expect(shipped).toContain(`ATTR{idVendor}=="${v}", ATTR{idProduct}=="${p}", MODE="0660", GROUP="plugdev", TAG+="uaccess"`);
      }
    }
    for (const line of shipped.split('\n')) if (line.includes('#')) expect(line.startsWith('#')).toBe(true);
  });

  it('the deb package installs it into /usr/lib/udev/rules.d', () => {
    const config = yaml.load(readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8'));
    expect(config.deb.fpm).toContain('native/udev/70-biostation-readers.rules=/usr/lib/udev/rules.d/70-biostation-readers.rules');
  });
});
