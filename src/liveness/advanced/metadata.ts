/**
 * Schema of the capture metadata, format v1 (the client's type is renderer/capture/liveness/metadata.ts;
 * the fields are described in docs/liveness-payload.md). A plaintext whose metadata does not match
 * is answered 400 "Failed to read metadata".
 */
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { metadataError } from './envelope.js';

const Num = Type.Number();
const Str = Type.String({ maxLength: 4096 });
const Bool = Type.Boolean();
const Dict = Type.Record(Type.String(), Type.Unknown());

export const CaptureMetadataSchema = Type.Object({
  v: Type.Literal(1),
  challenge: Type.Object({ nonce: Type.String({ maxLength: 64 }), started_at: Num, ended_at: Num, shown_ms: Type.Array(Num, { maxItems: 16 }) }),
  frames: Type.Array(Type.Object({ role: Type.Union([Type.Literal('key'), Type.Literal('challenge')]), t_ms: Num, width: Type.Integer({ minimum: 1, maximum: 4096 }), height: Type.Integer({ minimum: 1, maximum: 4096 }) }), { maxItems: 120 }),
  camera: Type.Object({
    label: Str,
    device_count: Type.Integer(),
    labels: Type.Array(Str, { maxItems: 32 }),
    settings: Dict,
    capabilities: Type.Union([Dict, Type.Null()]),
    probes: Type.Array(
      Type.Object({
        asked: Type.Object({ width: Num, height: Num, frameRate: Num }),
        reported: Type.Object({ width: Type.Optional(Num), height: Type.Optional(Num), frameRate: Type.Optional(Num) }),
        frame: Type.Object({ width: Num, height: Num }),
        ms: Num,
        ok: Bool,
      }),
      { maxItems: 8 },
    ),
  }),
  timing: Type.Object({ frame_count: Type.Integer(), mean_interval_ms: Num, jitter_ms: Num, source: Type.Union([Type.Literal('rvfc'), Type.Literal('raf')]) }),
  webgl: Type.Union([Type.Object({ vendor: Str, renderer: Str, unmasked_vendor: Type.Union([Str, Type.Null()]), unmasked_renderer: Type.Union([Str, Type.Null()]) }), Type.Null()]),
  automation: Type.Object({
    webdriver: Bool,
    cdp_traces: Type.Array(Str, { maxItems: 64 }),
    cdp_runtime: Bool,
    headless_ua: Bool,
    native: Type.Record(Type.String(), Bool),
    botd: Type.Union([Type.Object({ bot: Bool, kind: Type.Union([Str, Type.Null()]) }), Type.Null()]),
  }),
  navigator: Type.Object({
    user_agent: Str,
    ua_data: Type.Union([Type.Object({ brands: Type.Array(Type.Object({ brand: Str, version: Str }), { maxItems: 16 }), mobile: Bool, platform: Str }), Type.Null()]),
    languages: Type.Array(Str, { maxItems: 32 }),
    platform: Str,
    hardware_concurrency: Num,
  }),
  screen: Type.Object({ width: Num, height: Num, avail_width: Num, avail_height: Num, device_pixel_ratio: Num, color_depth: Num }),
  page: Type.Object({ origin: Str, secure_context: Bool }),
  sdk: Type.Object({ version: Str, build_hash: Type.String({ pattern: '^[0-9a-f]{64}$' }), proof: Type.String({ pattern: '^[0-9a-f]{64}$' }), source_url: Str }),
});

export type CaptureMetadata = Static<typeof CaptureMetadataSchema>;

/** @throws LivenessError 400 "Failed to read metadata" when `value` is not v1 metadata matching its frames. */
export function readMetadata(value: unknown, frameCount: number): CaptureMetadata {
  if (!Value.Check(CaptureMetadataSchema, value)) throw metadataError();
  if (value.frames.length !== frameCount || !value.frames.some((f) => f.role === 'key')) throw metadataError();
  return value;
}
