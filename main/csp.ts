import type { KioskSession } from './electron-like.js';

/**
 * The Content-Security-Policy of the kiosk page: only the station origin may serve scripts or be
 * called; images and video come from the page itself, data: and blob: (captures) and the camera.
 * 'unsafe-inline' is allowed for styles only (React style attributes).
 */
export function contentSecurityPolicy(): string {
  return [
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob: mediastream:",
    "connect-src 'self'",
    "font-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Permissions the kiosk page may get: the camera (media) and full screen. Everything else is denied. */
const ALLOWED_PERMISSIONS = new Set(['media', 'fullscreen']);

/** True when `url` is on the station's origin (scheme, host and port). */
export function isStationUrl(url: string | undefined | null, stationOrigin: string | null): boolean {
  if (!url || !stationOrigin) return false;
  try {
    return new URL(url).origin === stationOrigin;
  } catch {
    return false;
  }
}

/**
 * Installs the CSP response header on every station response and the permission policy:
 * camera and full screen for the station origin, nothing for anyone else (no microphone, no
 * screen capture, no geolocation, no notifications). `getOrigin` is read on each request, so a
 * restarted station on a new port is covered.
 */
export function installSessionPolicy(session: KioskSession, getOrigin: () => string | null): void {
  const csp = contentSecurityPolicy();
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isStationUrl(details.url, getOrigin())) return callback({});
    const headers = { ...(details.responseHeaders ?? {}) };
    for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-security-policy') delete headers[name];
    headers['Content-Security-Policy'] = [csp];
    callback({ responseHeaders: headers });
  });
  session.setPermissionRequestHandler((webContents, permission, callback, details) => {
    const fromStation = isStationUrl(details.requestingUrl ?? webContents.getURL(), getOrigin());
    if (!fromStation || !ALLOWED_PERMISSIONS.has(permission)) return callback(false);
    if (permission === 'media') {
      const types = 'mediaTypes' in details ? (details.mediaTypes ?? []) : [];
      return callback(types.every((t) => t === 'video'));
    }
    callback(true);
  });
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => {
    return ALLOWED_PERMISSIONS.has(permission) && isStationUrl(requestingOrigin, getOrigin());
  });
}
