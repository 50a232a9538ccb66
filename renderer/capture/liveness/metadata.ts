/**
 * Environment metadata of a capture, format v1 (docs/liveness-payload.md lists each field and the
 * station rule that reads it). Times are ms; `t_ms` of a frame counts from the first colour shown.
 */
export interface CaptureMetadata {
  v: 1;
  challenge: {
    nonce: string;
    /** Wall clock (Date.now()) when the first colour was shown, and when the last one ended. */
    started_at: number;
    ended_at: number;
    /** When each colour was actually put on screen, ms from started_at (performance clock). */
    shown_ms: number[];
  };
  frames: Array<{
    /** 'key': the selfie under neutral light, checked for the face; 'challenge': a frame under a colour. */
    role: 'key' | 'challenge';
    t_ms: number;
    width: number;
    height: number;
  }>;
  camera: {
    /** Label of the camera track in use. */
    label: string;
    /** Number of video inputs. */
    device_count: number;
    /** Labels of every media device (cameras, microphones, speakers): emulated devices come in families. */
    labels: string[];
    settings: Record<string, unknown>;
    capabilities: Record<string, unknown> | null;
    /** Resolution/frame-rate probes: what was asked, what the track then reported, what the frames were, how long it took. */
    probes: Array<{ asked: { width: number; height: number; frameRate: number }; reported: { width?: number; height?: number; frameRate?: number }; frame: { width: number; height: number }; ms: number; ok: boolean }>;
  };
  timing: { frame_count: number; mean_interval_ms: number; jitter_ms: number; source: 'rvfc' | 'raf' };
  webgl: { vendor: string; renderer: string; unmasked_vendor: string | null; unmasked_renderer: string | null } | null;
  automation: {
    webdriver: boolean;
    /** Names of window/document properties left by ChromeDriver / CDP tooling (cdc_*, __playwright*, __puppeteer*, ...). */
    cdp_traces: string[];
    /** Runtime.enable detector: an Error whose `stack` getter fired while being console-serialised. */
    cdp_runtime: boolean;
    headless_ua: boolean;
    /** Whether each media API still is the browser's native function. */
    native: Record<string, boolean>;
    /** @fingerprintjs/botd's verdict (its monitoring ping disabled), null when it failed to run. */
    botd: { bot: boolean; kind: string | null } | null;
  };
  navigator: {
    user_agent: string;
    ua_data: { brands: Array<{ brand: string; version: string }>; mobile: boolean; platform: string } | null;
    languages: string[];
    platform: string;
    hardware_concurrency: number;
  };
  screen: { width: number; height: number; avail_width: number; avail_height: number; device_pixel_ratio: number; color_depth: number };
  page: { origin: string; secure_context: boolean };
  sdk: {
    version: string;
    /** SHA-256 (hex) of the library's own code, as fetched from its module URL. */
    build_hash: string;
    /** HMAC-SHA-256(key = build hash, message = nonce), hex. */
    proof: string;
    source_url: string;
  };
}
