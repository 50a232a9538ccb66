/**
 * Environment evidence collected by the capture library (docs/liveness-payload.md, "Metadata"):
 * automation flags and DevTools-protocol traces, native-ness of the media APIs, WebGL, user agent
 * and client hints, screen, page. Each collector degrades to a neutral value rather than throwing.
 */
import { load as loadBotd } from '@fingerprintjs/botd';
import type { CaptureMetadata } from './metadata.js';

/** Window/document properties that ChromeDriver, Playwright, Puppeteer, Selenium and PhantomJS leave behind. */
const TRACE = /^(\$?cdc_|\$wdc_|__playwright|__pw|__puppeteer|__selenium|__webdriver|__driver|__fxdriver|_Selenium_IDE|callPhantom|_phantom|__nightmare|domAutomation)/;

export function cdpTraces(): string[] {
  const names = new Set<string>();
  for (const target of [window, document] as object[]) {
    try {
      for (const k of Object.getOwnPropertyNames(target)) if (TRACE.test(k)) names.add(k);
    } catch {
      // A hostile getter: nothing to list.
    }
  }
  return [...names].slice(0, 64);
}

/**
 * Runtime.enable detector: when a DevTools-protocol client has the Runtime domain enabled (as
 * Playwright and Puppeteer do), console messages are serialised for it and an Error's `stack`
 * getter runs. In an ordinary browser tab it does not.
 */
export function cdpRuntimeEnabled(): boolean {
  let fired = false;
  try {
    const e = new Error('biostation');
    Object.defineProperty(e, 'stack', {
      configurable: true,
      get() {
        fired = true;
        return '';
      },
    });
    console.debug(e);
  } catch {
    // ignore
  }
  return fired;
}

const fnToString = Function.prototype.toString;
const isNative = (f: unknown): boolean => {
  try {
    return typeof f === 'function' && /\{\s*\[native code\]\s*\}\s*$/.test(fnToString.call(f));
  } catch {
    return false;
  }
};

/** Whether the media and canvas APIs the capture depends on are still the browser's own functions. */
export function nativeApis(): Record<string, boolean> {
  const md = navigator.mediaDevices as MediaDevices | undefined;
  return {
    'Function.prototype.toString': isNative(fnToString) && isNative(Function.prototype.toString),
    getUserMedia: isNative(md?.getUserMedia),
    enumerateDevices: isNative(md?.enumerateDevices),
    'MediaStreamTrack.getSettings': isNative(MediaStreamTrack.prototype.getSettings),
    'HTMLCanvasElement.toBlob': isNative(HTMLCanvasElement.prototype.toBlob),
    'CanvasRenderingContext2D.drawImage': isNative(CanvasRenderingContext2D.prototype.drawImage),
    requestVideoFrameCallback: !('requestVideoFrameCallback' in HTMLVideoElement.prototype) || isNative(HTMLVideoElement.prototype.requestVideoFrameCallback),
  };
}

export function webglInfo(): CaptureMetadata['webgl'] {
  try {
    const canvas = document.createElement('canvas');
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return null;
    const ext = gl.getExtension('WEBGL_debug_renderer_info');
    return {
      vendor: String(gl.getParameter(gl.VENDOR)),
      renderer: String(gl.getParameter(gl.RENDERER)),
      unmasked_vendor: ext ? String(gl.getParameter(ext.UNMASKED_VENDOR_WEBGL)) : null,
      unmasked_renderer: ext ? String(gl.getParameter(ext.UNMASKED_RENDERER_WEBGL)) : null,
    };
  } catch {
    return null;
  }
}

interface UaData {
  brands: Array<{ brand: string; version: string }>;
  mobile: boolean;
  platform: string;
}

export function navigatorInfo(): CaptureMetadata['navigator'] {
  const ua = (navigator as Navigator & { userAgentData?: UaData }).userAgentData;
  return {
    user_agent: navigator.userAgent,
    ua_data: ua ? { brands: ua.brands.map((b) => ({ brand: b.brand, version: b.version })), mobile: ua.mobile, platform: ua.platform } : null,
    languages: [...(navigator.languages ?? [])],
    platform: navigator.platform ?? '',
    hardware_concurrency: navigator.hardwareConcurrency ?? 0,
  };
}

export function screenInfo(): CaptureMetadata['screen'] {
  return {
    width: screen.width,
    height: screen.height,
    avail_width: screen.availWidth,
    avail_height: screen.availHeight,
    device_pixel_ratio: window.devicePixelRatio,
    color_depth: screen.colorDepth,
  };
}

/** @fingerprintjs/botd (maintained bot detection), without its installation-statistics request (the station is offline-first). */
export async function botdVerdict(): Promise<CaptureMetadata['automation']['botd']> {
  try {
    const detector = await loadBotd({ monitoring: false });
    const r = detector.detect();
    return { bot: r.bot, kind: r.bot ? String(r.botKind) : null };
  } catch {
    return null;
  }
}

export async function automationInfo(): Promise<CaptureMetadata['automation']> {
  return {
    botd: await botdVerdict(),
    webdriver: navigator.webdriver === true,
    cdp_traces: cdpTraces(),
    cdp_runtime: cdpRuntimeEnabled(),
    headless_ua: /HeadlessChrome/i.test(navigator.userAgent),
    native: nativeApis(),
  };
}

/** Plain-data copy of track settings / capabilities (drops functions and non-JSON values). */
export function plain(o: object | null | undefined): Record<string, unknown> | null {
  if (!o) return null;
  try {
    return JSON.parse(JSON.stringify(o)) as Record<string, unknown>;
  } catch {
    return null;
  }
}
