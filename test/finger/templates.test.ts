import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectFormat, parseTemplate, writeTemplate } from '../../src/finger/index.js';
import { toAnsiAngle, toIsoAngle } from '../../src/finger/templates/byte-io.js';
import { hasSourceAfis, sourceAfisDir } from './datasets.js';

function listFmr(): string[] {
  const out: string[] = [];
  for (const year of readdirSync(sourceAfisDir)) {
    for (const db of readdirSync(path.join(sourceAfisDir, year))) {
      const dir = path.join(sourceAfisDir, year, db);
      for (const f of readdirSync(dir)) if (f.endsWith('.fmr')) out.push(path.join(dir, f));
    }
  }
  return out;
}

describe.skipIf(!hasSourceAfis)('ISO/ANSI round trips over every SourceAFIS 3.18.1 export', () => {
  const files = hasSourceAfis ? listFmr() : [];

  it('finds the exported templates', () => {
    expect(files.filter((f) => f.endsWith('.iso2005.fmr')).length).toBe(480);
    expect(files.filter((f) => f.endsWith('.ansi2004.fmr')).length).toBe(480);
    expect(files.filter((f) => f.endsWith('.iso2011.fmr')).length).toBe(480);
  });

  it('detects the format and re-encodes every record byte-identical', () => {
    const expected = { iso2005: 'iso-19794-2-2005', ansi2004: 'ansi-378-2004', iso2011: 'iso-19794-2-2011' } as const;
    for (const file of files) {
      const bytes = new Uint8Array(readFileSync(file));
      const kind = path.basename(file).split('.')[1] as keyof typeof expected;
      expect(detectFormat(bytes), file).toBe(expected[kind]);
      const { format, template } = parseTemplate(bytes);
      expect(Buffer.from(writeTemplate(template, format)).equals(Buffer.from(bytes)), file).toBe(true);
    }
  });

  it('converts between formats without moving a minutia by more than one unit', () => {
    for (const file of files.filter((f) => f.endsWith('.iso2005.fmr'))) {
      const iso = parseTemplate(new Uint8Array(readFileSync(file))).template;
      const ansi = parseTemplate(new Uint8Array(readFileSync(file.replace('.iso2005.', '.ansi2004.')))).template;
      const iso2011 = parseTemplate(new Uint8Array(readFileSync(file.replace('.iso2005.', '.iso2011.')))).template;
      const asAnsi = parseTemplate(writeTemplate(iso, 'ansi-378-2004')).template;
      const as2011 = parseTemplate(writeTemplate(iso, 'iso-19794-2-2011')).template;
      const back = parseTemplate(writeTemplate(asAnsi, 'iso-19794-2-2005')).template;
      const a = iso.views[0].minutiae;
      expect(asAnsi.views[0].minutiae.length).toBe(a.length);
      a.forEach((m, i) => {
        for (const [other, unit] of [
          [ansi.views[0].minutiae[i], toAnsiAngle],
          [asAnsi.views[0].minutiae[i], toAnsiAngle],
          [iso2011.views[0].minutiae[i], toIsoAngle],
          [as2011.views[0].minutiae[i], toIsoAngle],
          [back.views[0].minutiae[i], toIsoAngle],
        ] as const) {
          expect(Math.abs(other.x - m.x)).toBeLessThanOrEqual(1);
          expect(Math.abs(other.y - m.y)).toBeLessThanOrEqual(1);
          expect(other.type).toBe(m.type);
          const modulus = unit === toAnsiAngle ? 180 : 256;
          const d = Math.abs(unit(other.direction) - unit(m.direction)) % modulus;
          expect(Math.min(d, modulus - d), file).toBeLessThanOrEqual(1);
        }
      });
      expect(as2011.width).toBe(iso.width);
      expect(asAnsi.xResolutionPpcm).toBe(iso.xResolutionPpcm);
    }
  });
});

describe('ISO/ANSI writer and parser', () => {
  it('round-trips several finger views and extended data', () => {
    const template = {
      width: 400,
      height: 500,
      xResolutionPpcm: 197,
      yResolutionPpcm: 197,
      views: [0, 1].map((v) => ({
        fingerPosition: v + 1,
        viewNumber: v,
        impressionType: 0,
        fingerQuality: 60,
        minutiae: [
          { x: 10, y: 20, direction: 1, type: 'ending' as const, quality: 50 },
          { x: 300, y: 400, direction: 4, type: 'bifurcation' as const, quality: 70 },
        ],
        extendedData: new Uint8Array(v ? [1, 2, 3] : []),
      })),
    };
    for (const format of ['iso-19794-2-2005', 'iso-19794-2-2011', 'ansi-378-2004'] as const) {
      const bytes = writeTemplate(template, format);
      const parsed = parseTemplate(bytes);
      expect(parsed.format).toBe(format);
      expect(parsed.template.views.length).toBe(2);
      expect(parsed.template.views[1].minutiae[1]).toMatchObject({ x: 300, y: 400, type: 'bifurcation' });
      expect(Array.from(parsed.template.views[1].extendedData)).toEqual([1, 2, 3]);
      expect(Buffer.from(writeTemplate(parsed.template, format)).equals(Buffer.from(bytes))).toBe(true);
    }
  });
});
