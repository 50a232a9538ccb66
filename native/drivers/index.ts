/** The USB fingerprint drivers, and the lookup by vendor:product id. */
import type { DriverDefinition } from './driver.js';
import { nb1010 } from './nb1010.js';
import { upektcImg } from './upektc_img.js';
import { aes3500 } from './aes3500.js';
import { elan } from './elan.js';
import { vfs301 } from './vfs301.js';
import { vfs5011 } from './vfs5011.js';

export * from './driver.js';

/** Every supported device family. */
export const DRIVERS: readonly DriverDefinition[] = [nb1010, aes3500, elan, upektcImg, vfs301, vfs5011];

/** The driver handling `vendorId:productId`, or undefined. */
export function findDriver(vendorId: number, productId: number): DriverDefinition | undefined {
  return DRIVERS.find((d) => d.devices.some((x) => x.vendorId === vendorId && x.productId === productId));
}

/** `298d:1010` style id. */
export function usbIdString(vendorId: number, productId: number): string {
  return `${vendorId.toString(16).padStart(4, '0')}:${productId.toString(16).padStart(4, '0')}`;
}
