/**
 * The udev rule that lets the kiosk's user open the supported readers without root (libusb needs
 * read/write on /dev/bus/usb/BBB/DDD). Generated from the driver table so it cannot drift; the
 * shipped file native/udev/70-biostation-readers.rules must equal `udevRules()` (a test checks).
 * `TAG+="uaccess"` gives the user logged in on the seat access (systemd-logind); `GROUP="plugdev"`
 * with `MODE="0660"` covers kiosk users without a seat session (add them to plugdev).
 */
import { DRIVERS, usbIdString } from './drivers/index.js';

export const UDEV_RULES_FILE = '70-biostation-readers.rules';

/** The rules file text: one line per supported vendor:product id. */
export function udevRules(): string {
  const lines = [
    '# Biostation: USB fingerprint readers usable by the kiosk user without root.',
    '# Generated from native/drivers (udevRules() in native/udev.ts); install into /etc/udev/rules.d/',
    '# (the deb package installs it into /usr/lib/udev/rules.d/), then replug the reader.',
    '',
  ];
  for (const driver of DRIVERS) {
    lines.push(`# ${driver.name} (driver ${driver.id})`); // udev allows comments only on their own line
    for (const { vendorId, productId } of driver.devices) {
      const [v, p] = usbIdString(vendorId, productId).split(':');
      lines.push(`SUBSYSTEM=="usb", ENV{DEVTYPE}=="usb_device", ATTR{idVendor}=="${v}", ATTR{idProduct}=="${p}", MODE="0660", GROUP="plugdev", TAG+="uaccess"`);
    }
  }
  return `${lines.join('\n')}\n`;
}
