/**
 * Hybrid logical clock (Kulkarni et al., "Logical Physical Clocks", OPODIS 2014), encoded so that
 * plain string comparison orders versions: `<13-digit wall ms>.<6-digit counter>@<station id>`,
 * e.g. `1764000000000.000003@5f0c...`. The wall part never goes backwards on a replica (a clock set
 * back, or a version received from a station whose clock runs ahead, moves the counter instead),
 * so a change made here after a sync always wins over what the sync brought; the station id breaks
 * ties between stations that changed the same person in the same millisecond and counter.
 */

export interface Hlc {
  /** Wall-clock part, milliseconds since the epoch. */
  ms: number;
  counter: number;
  stationId: string;
}

/** Stations' ids: a UUID (random per application database) or, for legacy peers, a short name. */
const STATION_ID = /^[A-Za-z0-9-]{1,64}$/;
const VERSION = /^(\d{13})\.(\d{6})@([A-Za-z0-9-]{1,64})$/;
const MAX_COUNTER = 999_999;

/** Formats a version string. @throws Error for a malformed station id or out-of-range parts (a bug). */
export function formatHlc(h: Hlc): string {
  if (!STATION_ID.test(h.stationId) || !Number.isSafeInteger(h.ms) || h.ms < 0 || h.ms > 9_999_999_999_999 || h.counter < 0 || h.counter > MAX_COUNTER) {
    throw new Error(`invalid HLC ${JSON.stringify(h)}`);
  }
  return `${String(h.ms).padStart(13, '0')}.${String(h.counter).padStart(6, '0')}@${h.stationId}`;
}

/** Parses a version string; undefined when it is not one. */
export function parseHlc(version: string): Hlc | undefined {
  const m = VERSION.exec(version);
  return m ? { ms: Number(m[1]), counter: Number(m[2]), stationId: m[3] } : undefined;
}

/**
 * The next version of a local write, after `last` (the replica's latest version, '' when none) at
 * wall time `now` (ms): `now` when the wall clock moved on, else `last`'s wall part with the counter
 * raised (its station id replaced by ours).
 */
export function nextHlc(last: string, now: number, stationId: string): string {
  const prev = last ? parseHlc(last) : undefined;
  if (!prev || now > prev.ms) return formatHlc({ ms: now, counter: 0, stationId });
  if (prev.counter < MAX_COUNTER) return formatHlc({ ms: prev.ms, counter: prev.counter + 1, stationId });
  return formatHlc({ ms: prev.ms + 1, counter: 0, stationId });
}

/** The later of two versions ('' is earlier than any). */
export const maxHlc = (a: string, b: string): string => (a >= b ? a : b);

/**
 * The version a legacy record gets (a row written before versions existed, or a peer's dump without
 * them): its UpdatedAt with counter 0 and the given station id.
 */
export function hlcOfTimestamp(iso: string, stationId: string): string {
  return formatHlc({ ms: Date.parse(iso), counter: 0, stationId });
}
