/**
 * The widened set's `final` part (test/fixtures/cnh/widened.ts, issue #17 part B) draws its people from
 * lists no other part uses. This checks the lists and the people only (no image is rendered or read:
 * the part's images are for the lead's single final benchmark run).
 */
import { describe, expect, it } from 'vitest';
import { COMMON_NAMES, FINAL2_NAMES, FINAL3_NAMES, FINAL4_NAMES, FINAL5_NAMES, FINAL6_NAMES, FINAL7_NAMES, FINAL7_SUFFIXES, FINAL8_MARIAN, FINAL8_NAMES, FINAL9_FALLBACK, FINAL9_NAMES, FINAL10_FALLBACK, FINAL10_NAMES, FINAL11_FALLBACK, FINAL11_NAMES, FINAL12_FALLBACK, FINAL12_NAMES, FINAL13_FALLBACK, FINAL13_NAMES, FINAL14_FALLBACK, FINAL14_NAMES, FINAL15_FALLBACK, FINAL15_NAMES, FINAL16_FALLBACK, FINAL16_NAMES, FINAL17_FALLBACK, FINAL17_NAMES, FINAL18_FALLBACK, FINAL18_NAMES, FINAL19_FALLBACK, FINAL19_NAMES, FINAL20_FALLBACK, FINAL20_NAMES, FINAL21_FALLBACK, FINAL21_NAMES, FINAL22_FALLBACK, FINAL22_NAMES, FINAL23_FALLBACK, FINAL23_NAMES, FINAL24_FALLBACK, FINAL24_NAMES, FINAL25_FALLBACK, FINAL25_NAMES, FINAL26_FALLBACK, FINAL26_NAMES, FINAL27_FALLBACK, FINAL27_NAMES, FINAL28_FALLBACK, FINAL28_NAMES, FINAL29_FALLBACK, FINAL29_NAMES, FINAL30_FALLBACK, FINAL30_MOROCCAN, FINAL30_NAMES, FINAL31_AZOREAN, FINAL31_FALLBACK, FINAL31_NAMES, FINAL32_CUIABANO, FINAL32_FALLBACK, FINAL32_NAMES, FINAL33_FALLBACK, FINAL33_NAMES, FINAL33_POMERANO, FINAL27_PARTICLED, RESERVED_NAMES, fakePerson } from '../fixtures/cnh/people.js';
import { PART_SEED } from '../fixtures/cnh/widened.js';

const fold = (s: string): string => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
const cities = (p: typeof COMMON_NAMES): string[] => Object.values(p.cities).flat();
const all = (p: typeof COMMON_NAMES): string[] => [...p.male, ...p.female, ...p.surnames, ...cities(p)];

/**
 * The checks every part from final12 on makes of its own lists (`names`, `fallback`), against the
 * earlier parts' (the fixed ones below, plus `later` and `laterFallbacks`: final10's on): disjoint word by
 * word (accents ignored), at least 40 given names and 40 surnames, the fallback not among the surnames;
 * and of its first 100 people (from `seed`): towns of their state, every name within the card's 46
 * characters and made of the part's own words (no Portuguese particle). Returns those people's names.
 */
function ownNames(names: typeof COMMON_NAMES, fallback: string, later: (typeof COMMON_NAMES)[], laterFallbacks: string[], seed: number): string[] {
  const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
    ...all(FINAL6_NAMES), ...all(FINAL7_NAMES), ...all(FINAL8_NAMES), ...all(FINAL9_NAMES), ...later.flatMap(all), ...FINAL7_SUFFIXES, ...FINAL8_MARIAN,
    FINAL9_FALLBACK, ...laterFallbacks, 'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO', 'TABOSA', 'SERQUEIRA'].map(fold));
  const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
  expect([...all(names), fallback].flatMap((w) => w.split(/[ -]/)).filter((w) => otherWords.has(fold(w)))).toEqual([]);
  expect(names.male.length + names.female.length).toBeGreaterThanOrEqual(40);
  expect(names.surnames.length).toBeGreaterThanOrEqual(40);
  expect(names.surnames).not.toContain(fallback);
  const ownWords = new Set([...names.male, ...names.female, ...names.surnames, fallback].flatMap((w) => w.split(' ')));
  const out: string[] = [];
  for (let i = 0; i < 100; i++) {
    const f = fakePerson(seed + i, false, names);
    expect(names.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
    for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
      expect(name.length).toBeLessThanOrEqual(46);
      expect(name.split(' ').every((w) => ownWords.has(w))).toBe(true);
      out.push(name);
    }
  }
  return out;
}

describe('widened set, final part', () => {
  it('reserves given names, surnames and towns that no other part draws (accents ignored)', () => {
    const common = new Set([...COMMON_NAMES.male, ...COMMON_NAMES.female, ...COMMON_NAMES.surnames, ...cities(COMMON_NAMES)].map(fold));
    const reserved = [...RESERVED_NAMES.male, ...RESERVED_NAMES.female, ...RESERVED_NAMES.surnames, ...cities(RESERVED_NAMES)];
    expect(reserved.filter((w) => common.has(fold(w)))).toEqual([]);
    expect(RESERVED_NAMES.male.length + RESERVED_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(RESERVED_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    // With and without accents.
    const accented = [...RESERVED_NAMES.male, ...RESERVED_NAMES.female, ...RESERVED_NAMES.surnames].filter((w) => fold(w) !== w);
    expect(accented.length).toBeGreaterThan(20);
  });

  it('its people use only the reserved lists; the other parts keep the common ones', () => {
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const reservedWords = new Set([...RESERVED_NAMES.male, ...RESERVED_NAMES.female, ...RESERVED_NAMES.surnames, 'ARCOVERDE']);
    const commonWords = new Set([...COMMON_NAMES.male, ...COMMON_NAMES.female, ...COMMON_NAMES.surnames, 'JUNQUEIRA']);
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final + i, false, RESERVED_NAMES);
      expect(words(f).every((w) => reservedWords.has(w))).toBe(true);
      expect(RESERVED_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      const t = fakePerson(PART_SEED.tuning + i);
      expect(words(t).every((w) => commonWords.has(w))).toBe(true);
      expect(COMMON_NAMES.cities[t.ufNascimento]).toContain(t.cidadeNascimento);
    }
  });

  it('final2 reserves its own names and towns, disjoint from the common and the final lists (accents ignored)', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), 'JUNQUEIRA', 'ARCOVERDE'].map(fold));
    expect(all(FINAL2_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    expect(FINAL2_NAMES.male.length + FINAL2_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL2_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const own = new Set([...FINAL2_NAMES.male, ...FINAL2_NAMES.female, ...FINAL2_NAMES.surnames, 'MEIRELES']);
    expect(others.has('MEIRELES')).toBe(false);
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final2 + i, false, FINAL2_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL2_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
    }
  });

  it('final3 reserves its own names and towns, disjoint from every other part\'s lists (accents ignored)', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), 'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES'].map(fold));
    expect(all(FINAL3_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    expect(FINAL3_NAMES.male.length + FINAL3_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL3_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(others.has('BITTENCOURT')).toBe(false);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const own = new Set([...FINAL3_NAMES.male, ...FINAL3_NAMES.female, ...FINAL3_NAMES.surnames, 'BITTENCOURT']);
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final3 + i, false, FINAL3_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL3_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
    }
  });

  it('final4 reserves its own names and towns, disjoint from every other part\'s lists (accents ignored)', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), 'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT'].map(fold));
    expect(all(FINAL4_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    // No word of a final4 name or town is a whole word of another part's (TOLEDO the town is not a surname elsewhere).
    const otherWords = new Set([...others].flatMap((w) => w.split(' ')));
    expect([...FINAL4_NAMES.male, ...FINAL4_NAMES.female, ...FINAL4_NAMES.surnames].filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL4_NAMES.male.length + FINAL4_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL4_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(others.has('VARGAS')).toBe(false);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const own = new Set([...FINAL4_NAMES.male, ...FINAL4_NAMES.female, ...FINAL4_NAMES.surnames, 'VARGAS']);
    let apostrophes = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final4 + i, false, FINAL4_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL4_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      if (/'/.test(`${f.nome_completo} ${f.nome_pai} ${f.nome_mae}`)) apostrophes++;
    }
    expect(apostrophes).toBeGreaterThan(5);
  });
  it('final5 reserves its own names and towns, disjoint from every other part\'s lists, hyphenated parts included (accents ignored)', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES),
      'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS'].map(fold));
    expect(all(FINAL5_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    // No word of a final5 name, nor a part of a hyphenated one, is a whole word (or part) of another part's.
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    expect([...FINAL5_NAMES.male, ...FINAL5_NAMES.female, ...FINAL5_NAMES.surnames].flatMap((w) => w.split('-')).filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(cities(FINAL5_NAMES).filter((c) => others.has(fold(c)))).toEqual([]);
    expect(FINAL5_NAMES.male.length + FINAL5_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL5_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(others.has('FONTENELE')).toBe(false);
    expect([...FINAL5_NAMES.male, ...FINAL5_NAMES.female].filter((w) => w.includes('-')).length).toBeGreaterThanOrEqual(6);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const own = new Set([...FINAL5_NAMES.male, ...FINAL5_NAMES.female, ...FINAL5_NAMES.surnames, 'FONTENELE']);
    let hyphenated = 0, long = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final5 + i, false, FINAL5_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL5_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        expect(name.split(' ').length).toBeLessThanOrEqual(5);
        if (name.split(' ').length >= 4) long++;
        if (name.includes('-')) hyphenated++;
      }
    }
    expect(hyphenated).toBeGreaterThan(10);
    expect(long).toBeGreaterThan(60);
  });

  it('final6 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); it joins surnames with E and uses DAS and DO', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE'].map(fold));
    expect(all(FINAL6_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    expect([...FINAL6_NAMES.male, ...FINAL6_NAMES.female, ...FINAL6_NAMES.surnames].filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL6_NAMES.male.length + FINAL6_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL6_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(otherWords.has('PEDROSO')).toBe(false);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS', 'DAS', 'DO', 'E'].includes(w));
    const own = new Set([...FINAL6_NAMES.male, ...FINAL6_NAMES.female, ...FINAL6_NAMES.surnames, 'PEDROSO']);
    let joined = 0, newParticles = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final6 + i, false, FINAL6_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL6_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        expect(name.length).toBeLessThanOrEqual(46);
        if (/ E /.test(name)) joined++;
        if (/ (DAS|DO) /.test(name)) newParticles++;
      }
    }
    expect(joined).toBeGreaterThan(10);
    expect(newParticles).toBeGreaterThan(20);
  });

  it('final7 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); men\'s names end in FILHO, JÚNIOR, NETO or SOBRINHO', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      ...all(FINAL6_NAMES), 'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO'].map(fold));
    expect(all(FINAL7_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    expect([...FINAL7_NAMES.male, ...FINAL7_NAMES.female, ...FINAL7_NAMES.surnames, 'TABOSA', ...FINAL7_SUFFIXES].filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL7_NAMES.male.length + FINAL7_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL7_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const own = new Set([...FINAL7_NAMES.male, ...FINAL7_NAMES.female, ...FINAL7_NAMES.surnames, 'TABOSA', ...FINAL7_SUFFIXES]);
    let suffixed = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final7 + i, false, FINAL7_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL7_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        expect(name.length).toBeLessThanOrEqual(46);
        if ((FINAL7_SUFFIXES as readonly string[]).includes(name.split(' ').at(-1) ?? '')) suffixed++;
      }
      // A mother's name never takes a man's suffix.
      expect((FINAL7_SUFFIXES as readonly string[]).includes(f.nome_mae.split(' ').at(-1) ?? '')).toBe(false);
    }
    expect(suffixed).toBeGreaterThan(20);
  });

  it('final8 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); women\'s names carry Marian names with their particles', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      ...all(FINAL6_NAMES), ...all(FINAL7_NAMES), ...FINAL7_SUFFIXES, 'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO', 'TABOSA'].map(fold));
    expect(all(FINAL8_NAMES).filter((w) => others.has(fold(w)))).toEqual([]);
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    const marianWords = FINAL8_MARIAN.flatMap((m) => m.split(' ')).filter((w) => !['DA', 'DAS', 'DO'].includes(w));
    expect([...FINAL8_NAMES.male, ...FINAL8_NAMES.female, ...FINAL8_NAMES.surnames, 'SERQUEIRA', ...marianWords].filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL8_NAMES.male.length + FINAL8_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL8_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS', 'DAS', 'DO'].includes(w));
    const own = new Set([...FINAL8_NAMES.male, ...FINAL8_NAMES.female, ...FINAL8_NAMES.surnames, 'SERQUEIRA', ...marianWords]);
    let marian = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final8 + i, false, FINAL8_NAMES);
      expect(words(f).every((w) => own.has(w))).toBe(true);
      expect(FINAL8_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        expect(name.length).toBeLessThanOrEqual(46);
        if (FINAL8_MARIAN.some((m) => name.includes(` ${m} `))) marian++;
      }
      // A father's name never carries one.
      expect(FINAL8_MARIAN.some((m) => f.nome_pai.includes(` ${m} `))).toBe(false);
    }
    expect(marian).toBeGreaterThan(15);
  });

  it('final9 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); a quarter of names carry a single surname', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      ...all(FINAL6_NAMES), ...all(FINAL7_NAMES), ...all(FINAL8_NAMES), ...FINAL7_SUFFIXES, ...FINAL8_MARIAN,
      'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO', 'TABOSA', 'SERQUEIRA'].map(fold));
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    const own = [...all(FINAL9_NAMES), FINAL9_FALLBACK];
    expect(own.flatMap((w) => w.split(/[ -]/)).filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL9_NAMES.male.length + FINAL9_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL9_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    // Surnames of three letters, the shortest any part draws.
    expect(FINAL9_NAMES.surnames.filter((w) => w.length === 3).length).toBeGreaterThanOrEqual(2);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const ownWords = new Set([...FINAL9_NAMES.male, ...FINAL9_NAMES.female, ...FINAL9_NAMES.surnames, FINAL9_FALLBACK]);
    const surnames = new Set([...FINAL9_NAMES.surnames, FINAL9_FALLBACK]);
    let single = 0, names = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final9 + i, false, FINAL9_NAMES);
      expect(words(f).every((w) => ownWords.has(w))).toBe(true);
      expect(FINAL9_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        names++;
        expect(name.length).toBeLessThanOrEqual(46);
        if (name.split(' ').filter((w) => surnames.has(w)).length === 1) single++;
      }
    }
    expect(single / names).toBeGreaterThan(0.15);
    expect(single / names).toBeLessThan(0.35);
  });

  it('final10 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); every name fits the card\'s line', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      ...all(FINAL6_NAMES), ...all(FINAL7_NAMES), ...all(FINAL8_NAMES), ...all(FINAL9_NAMES), ...FINAL7_SUFFIXES, ...FINAL8_MARIAN, FINAL9_FALLBACK,
      'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO', 'TABOSA', 'SERQUEIRA'].map(fold));
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    const own = [...all(FINAL10_NAMES), FINAL10_FALLBACK];
    expect(own.flatMap((w) => w.split(/[ -]/)).filter((w) => !['DAS', 'DOM'].includes(w) && otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL10_NAMES.male.length + FINAL10_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL10_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(FINAL10_NAMES.surnames).not.toContain(FINAL10_FALLBACK);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const ownWords = new Set([...FINAL10_NAMES.male, ...FINAL10_NAMES.female, ...FINAL10_NAMES.surnames, FINAL10_FALLBACK]);
    let threeSurnames = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final10 + i, false, FINAL10_NAMES);
      expect(words(f).every((w) => ownWords.has(w))).toBe(true);
      expect(FINAL10_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) expect(name.length).toBeLessThanOrEqual(46);
      if (f.nome_mae.split(' ').filter((w) => FINAL10_NAMES.surnames.includes(w) || w === FINAL10_FALLBACK).length === 3) threeSurnames++;
    }
    expect(threeSurnames).toBeGreaterThan(3);
  });

  it('final11 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); particles take no connector; every name fits the card\'s line', () => {
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      ...all(FINAL6_NAMES), ...all(FINAL7_NAMES), ...all(FINAL8_NAMES), ...all(FINAL9_NAMES), ...all(FINAL10_NAMES), ...FINAL7_SUFFIXES, ...FINAL8_MARIAN,
      FINAL9_FALLBACK, FINAL10_FALLBACK, 'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO', 'TABOSA', 'SERQUEIRA'].map(fold));
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    const own = [...all(FINAL11_NAMES), FINAL11_FALLBACK];
    expect(own.flatMap((w) => w.split(/[ -]/)).filter((w) => !['DE', 'DO', 'DOS', 'DA', 'DAS'].includes(w) && otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL11_NAMES.male.length + FINAL11_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL11_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(FINAL11_NAMES.surnames).not.toContain(FINAL11_FALLBACK);
    const words = (p: ReturnType<typeof fakePerson>): string[] => `${p.nome_completo} ${p.nome_pai} ${p.nome_mae}`.split(' ').filter((w) => w && !['DE', 'DA', 'DOS'].includes(w));
    const ownWords = new Set([...FINAL11_NAMES.male, ...FINAL11_NAMES.female, ...FINAL11_NAMES.surnames, FINAL11_FALLBACK].flatMap((w) => w.split(' ')));
    let particles = 0;
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final11 + i, false, FINAL11_NAMES);
      expect(words(f).every((w) => ownWords.has(w))).toBe(true);
      expect(FINAL11_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        expect(name.length).toBeLessThanOrEqual(46);
        // A Dutch particle is never preceded by a Portuguese one (no "DE VAN DER MEER").
        expect(name).not.toMatch(/\b(DE|DA|DOS) (VAN|TEN) /);
        if (/\b(VAN|TEN) /.test(name)) particles++;
      }
    }
    expect(particles).toBeGreaterThan(20);
  });

  it('final12 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL12_NAMES, FINAL12_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES], [FINAL10_FALLBACK, FINAL11_FALLBACK], PART_SEED.final12);
    // Surnames of two or three letters (WU, XU, KIM, LEE) are common enough to be measured.
    expect(names.filter((n) => n.split(' ').some((w) => w.length <= 3)).length).toBeGreaterThan(20);
  });

  it('final13 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL13_NAMES, FINAL13_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES], [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK], PART_SEED.final13);
    // Surnames of three or four letters (SOW, EZE, FALL, DIOP) are common enough to be measured.
    expect(names.filter((n) => n.split(' ').some((w) => w.length <= 4)).length).toBeGreaterThan(20);
  });

  it('final14 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL14_NAMES, FINAL14_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK], PART_SEED.final14);
    // Letters the Portuguese alphabet lacks (Ä, Ö, Ü) and hyphenated AL- surnames are common enough to be measured.
    expect(names.filter((n) => /[ÄÖÜ]/.test(n)).length).toBeGreaterThan(20);
    expect(names.filter((n) => n.includes('-')).length).toBeGreaterThan(10);
  });

  it('final15 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL15_NAMES, FINAL15_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK], PART_SEED.final15);
    // Italian particles (DAL, DALLA) and the apostrophe (DALL'AGNOL) are common enough to be measured.
    expect(names.filter((n) => /\bDALL?A?\b/.test(n)).length).toBeGreaterThan(20);
    expect(names.filter((n) => n.includes("'")).length).toBeGreaterThan(3);
  });

  it('final16 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL16_NAMES, FINAL16_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK], PART_SEED.final16);
    // The háček, the ring and the double acute (letters Portuguese never writes) are common enough to be measured.
    expect(names.filter((n) => /[ČŠŽŘĚŮŇ]/.test(n)).length).toBeGreaterThan(30);
    expect(names.filter((n) => /[ŐŰ]/.test(n)).length).toBeGreaterThan(5);
  });

  it('final17 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL17_NAMES, FINAL17_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK], PART_SEED.final17);
    // The dot above, the macron and the comma under a consonant (letters Portuguese never writes) are common enough to be measured.
    expect(names.filter((n) => /[ĖĀĒĪŪ]/.test(n)).length).toBeGreaterThan(30);
    expect(names.filter((n) => /[ĶĻŅĢĄ]/.test(n)).length).toBeGreaterThan(5);
  });

  it('final18 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL18_NAMES, FINAL18_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK], PART_SEED.final18);
    // The comma under S and T, the breve, the dotted capital İ and the cedilla under S (letters Portuguese never writes) are common enough to be measured.
    expect(names.filter((n) => /[ȘȚŞ]/.test(n)).length).toBeGreaterThan(10);
    expect(names.filter((n) => /[ĂĞİ]/.test(n)).length).toBeGreaterThan(20);
  });

  it('final19 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL19_NAMES, FINAL19_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK], PART_SEED.final19);
    // Letters of their own (not a mark over a Latin letter: Ø, Æ, Å, Þ, Ð, Ł) and the Polish marks (Ś, Ź, Ż, Ń, Ć) are common enough to be measured.
    expect(names.filter((n) => /[ØÆÅÞÐ]/.test(n)).length).toBeGreaterThan(20);
    expect(names.filter((n) => /[ŁŚŹŻŃĆ]/.test(n)).length).toBeGreaterThan(20);
  });

  it('final20 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL20_NAMES, FINAL20_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK], PART_SEED.final20);
    // The stroked Đ and the háček and acute over C, S, Z, and Vietnamese letters beyond Latin-1 and Latin Extended-A
    // (the horn, stacked tone marks: U+01A0-U+01B0, U+1EA0-U+1EF9) are common enough to be measured.
    expect(names.filter((n) => /[ĐČĆŠŽ]/.test(n)).length).toBeGreaterThan(20);
    expect(names.filter((n) => /[\u01A0-\u01B0\u1EA0-\u1EF9]/.test(n)).length).toBeGreaterThan(20);
  });

  it('final21 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL21_NAMES, FINAL21_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK], PART_SEED.final21);
    // The schwa, the dotted Maltese letters and the barred H (Latin Extended-A and -B, beyond Latin-1), and the
    // Albanian diaeresis and cedilla, are common enough to be measured.
    expect(names.filter((n) => /[ƏĠĊŻĦ]/.test(n)).length).toBeGreaterThan(20);
    expect(names.filter((n) => /[ËÇ]/.test(n)).length).toBeGreaterThan(5);
  });

  it('final22 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL22_NAMES, FINAL22_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK], PART_SEED.final22);
    // The Welsh circumflex over W and Y, Estonian Õ, and the dot below (Latin Extended Additional: Ẹ, Ọ, Ṣ) are
    // common enough to be measured.
    expect(names.filter((n) => /[ŴŶÕ]/.test(n)).length).toBeGreaterThan(5);
    expect(names.filter((n) => /[ẸỌṢ]/.test(n)).length).toBeGreaterThan(20);
  });

  it('final23 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL23_NAMES, FINAL23_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK], PART_SEED.final23);
    // Catalan's middle dot and the Guarani nasal tilde over E, I, U and Y are common enough to be measured.
    expect(names.filter((n) => n.includes('·')).length).toBeGreaterThan(5);
    expect(names.filter((n) => /[ẼĨŨỸ]/.test(n)).length).toBeGreaterThan(10);
  });

  it('final24 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL24_NAMES, FINAL24_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK], PART_SEED.final24);
    // The Sami Đ, Ŋ and Ŧ, the Hawaiian ʻokina and kahakō, and the Hausa hooked letters are common enough to be measured.
    expect(names.filter((n) => /[ĐŊŦ]/.test(n)).length).toBeGreaterThan(5);
    expect(names.filter((n) => /[ʻĀĒĪŌŪ]/.test(n)).length).toBeGreaterThan(10);
    expect(names.filter((n) => /[ƁƊƘ]/.test(n)).length).toBeGreaterThan(10);
  });

  it('final25 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL25_NAMES, FINAL25_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK], PART_SEED.final25);
    // The Akan open letters, the Slovak carons and acutes, and the Igbo dots are common enough to be measured.
    expect(names.filter((n) => /[ƐƆ]/.test(n)).length).toBeGreaterThan(10);
    expect(names.filter((n) => /[ĽĎŤĹÔÄ]/.test(n)).length).toBeGreaterThan(10);
    expect(names.filter((n) => /[ỊỌỤṄ]/.test(n)).length).toBeGreaterThan(10);
  });

  it('final26 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL26_NAMES, FINAL26_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK], PART_SEED.final26);
    // The Guarani tildes and puso, the barred Ɨ and the Pinyin carons are common enough to be measured.
    expect(names.filter((n) => /[ỸẼĨŨʼ]|G\u0303/.test(n)).length).toBeGreaterThan(10);
    expect(names.filter((n) => /Ɨ/.test(n)).length).toBeGreaterThan(10);
    expect(names.filter((n) => /[ǍĚǏǑǓǙ]/.test(n)).length).toBeGreaterThan(10);
  });

  it('final27 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); Portuguese particles and E only about its Portuguese surnames; every name fits the card\'s line, many near it', () => {
    const later = [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES];
    const others = new Set([...all(COMMON_NAMES), ...all(RESERVED_NAMES), ...all(FINAL2_NAMES), ...all(FINAL3_NAMES), ...all(FINAL4_NAMES), ...all(FINAL5_NAMES),
      ...all(FINAL6_NAMES), ...all(FINAL7_NAMES), ...all(FINAL8_NAMES), ...all(FINAL9_NAMES), ...later.flatMap(all), ...FINAL7_SUFFIXES, ...FINAL8_MARIAN, FINAL9_FALLBACK,
      FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK,
      FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK,
      'JUNQUEIRA', 'ARCOVERDE', 'MEIRELES', 'BITTENCOURT', 'VARGAS', 'FONTENELE', 'PEDROSO', 'TABOSA', 'SERQUEIRA'].map(fold));
    const otherWords = new Set([...others].flatMap((w) => w.split(/[ -]/)));
    // The elided particle (D', DALL', DELL') is the card's own, like DE and DA; the word after it is checked.
    const words = [...all(FINAL27_NAMES), FINAL27_FALLBACK].flatMap((w) => w.split(/[ -]/)).map((w) => w.replace(/^(D|DALL|DELL)'/, ''));
    expect(words.filter((w) => otherWords.has(fold(w)))).toEqual([]);
    expect(FINAL27_NAMES.male.length + FINAL27_NAMES.female.length).toBeGreaterThanOrEqual(40);
    expect(FINAL27_NAMES.surnames.length).toBeGreaterThanOrEqual(40);
    expect(FINAL27_NAMES.surnames).not.toContain(FINAL27_FALLBACK);
    const own = new Set([...FINAL27_NAMES.male, ...FINAL27_NAMES.female, ...FINAL27_NAMES.surnames, FINAL27_FALLBACK]);
    const particles = ['DE', 'DA', 'DO', 'DOS', 'DAS', 'E'];
    const names: string[] = [];
    for (let i = 0; i < 100; i++) {
      const f = fakePerson(PART_SEED.final27 + i, false, FINAL27_NAMES);
      expect(FINAL27_NAMES.cities[f.ufNascimento]).toContain(f.cidadeNascimento);
      for (const name of [f.nome_completo, f.nome_pai, f.nome_mae].filter(Boolean)) {
        expect(name.length).toBeLessThanOrEqual(46);
        const w = name.split(' ');
        expect(w.every((x) => own.has(x) || particles.includes(x))).toBe(true);
        // A particle stands before a Portuguese surname only; E between two of them.
        w.forEach((x, k) => { if (particles.includes(x)) expect([...FINAL27_PARTICLED, FINAL27_FALLBACK, ...particles.slice(0, 5)]).toContain(w[k + 1]); });
        names.push(name);
      }
    }
    expect(names.filter((n) => / (DE|DA|DO|DOS|DAS) /.test(n)).length).toBeGreaterThan(60);
    expect(names.filter((n) => / E /.test(n)).length).toBeGreaterThan(3);
    expect(names.filter((n) => n.length >= 40).length).toBeGreaterThan(40);
    expect(names.filter((n) => /[-']/.test(n)).length).toBeGreaterThan(10);
  });

  it('final28 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL28_NAMES, FINAL28_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES, FINAL27_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK, FINAL27_FALLBACK], PART_SEED.final28);
    // Its accented letters (Í, Ô, Ó, Ã, Ç, É, Õ) are common enough to be measured.
    expect(names.filter((n) => /[ÍÔÓÃÇÉÕÚ]/.test(n)).length).toBeGreaterThan(20);
  });

  it('final29 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL29_NAMES, FINAL29_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES, FINAL27_NAMES, FINAL28_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK, FINAL27_FALLBACK, FINAL28_FALLBACK], PART_SEED.final29);
    // Its accented capitals (Á, Â, É, Ê, Í, Ó, Ô, Ú, Ã, Õ, Ç) are common enough to be measured: in most of its
    // names (278 of the 292 here), and a word beginning with one in many of them (141).
    expect(names.filter((n) => /[ÁÂÉÊÍÓÔÚÃÕÇ]/.test(n)).length).toBeGreaterThan(200);
    expect(names.filter((n) => n.split(' ').some((w) => /^[ÁÂÉÊÍÓÔÚ]/.test(w))).length).toBeGreaterThan(80);
  });

  it('final30 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL30_NAMES, FINAL30_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES, FINAL27_NAMES, FINAL28_NAMES, FINAL29_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK, FINAL27_FALLBACK, FINAL28_FALLBACK, FINAL29_FALLBACK], PART_SEED.final30);
    // Its accented letters (Á, Â, É, Ê, Í, Ó, Ô, Ú, Ã, Õ, Ç) are common enough to be measured (169 of the 289
    // names here), and so are the Moroccan Jewish families of Belém and Manaus (a surname of theirs in 154).
    expect(names.filter((n) => /[ÁÂÉÊÍÓÔÚÃÕÇ]/.test(n)).length).toBeGreaterThan(120);
    expect(FINAL30_MOROCCAN.length).toBeGreaterThanOrEqual(10);
    expect(FINAL30_MOROCCAN.every((s) => FINAL30_NAMES.surnames.includes(s))).toBe(true);
    expect(names.filter((n) => n.split(' ').some((w) => FINAL30_MOROCCAN.includes(w) || w === FINAL30_FALLBACK)).length).toBeGreaterThan(100);
  });

  it('final31 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL31_NAMES, FINAL31_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES, FINAL27_NAMES, FINAL28_NAMES, FINAL29_NAMES, FINAL30_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK, FINAL27_FALLBACK, FINAL28_FALLBACK, FINAL29_FALLBACK, FINAL30_FALLBACK], PART_SEED.final31);
    // Its towns are Santa Catarina's and Rio Grande do Sul's only.
    expect(Object.keys(FINAL31_NAMES.cities).sort()).toEqual(['RS', 'SC']);
    // Its accented letters (É, Ê, Í, Ó, Ú, Ã) are common enough to be measured (106 of the 287
    // names here), and so are the Azorean families of Santa Catarina and Rio Grande do Sul (a surname of theirs in 146).
    expect(names.filter((n) => /[ÁÂÉÊÍÓÔÚÃÕÇ]/.test(n)).length).toBeGreaterThan(70);
    expect(FINAL31_AZOREAN.length).toBeGreaterThanOrEqual(10);
    expect(FINAL31_AZOREAN.every((s) => FINAL31_NAMES.surnames.includes(s))).toBe(true);
    expect(names.filter((n) => n.split(' ').some((w) => FINAL31_AZOREAN.includes(w) || w === FINAL31_FALLBACK)).length).toBeGreaterThan(100);
  });

  it('final32 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL32_NAMES, FINAL32_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES, FINAL27_NAMES, FINAL28_NAMES, FINAL29_NAMES, FINAL30_NAMES, FINAL31_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK, FINAL27_FALLBACK, FINAL28_FALLBACK, FINAL29_FALLBACK, FINAL30_FALLBACK, FINAL31_FALLBACK], PART_SEED.final32);
    // Its towns are Mato Grosso's, Mato Grosso do Sul's and Tocantins's only, none with a particle.
    expect(Object.keys(FINAL32_NAMES.cities).sort()).toEqual(['MS', 'MT', 'TO']);
    expect(Object.values(FINAL32_NAMES.cities).flat().every((t) => !t.includes(' '))).toBe(true);
    // Its accented letters (Á, É, Ê, Í, Ó, Ô, Ú, Ã, Ç) are common enough to be measured (159 of the 292
    // names here), and so are the old families of Cuiabá (a surname of theirs in 137).
    expect(names.filter((n) => /[ÁÂÉÊÍÓÔÚÃÕÇ]/.test(n)).length).toBeGreaterThan(110);
    expect(FINAL32_CUIABANO.length).toBeGreaterThanOrEqual(10);
    expect(FINAL32_CUIABANO.every((s) => FINAL32_NAMES.surnames.includes(s))).toBe(true);
    expect(names.filter((n) => n.split(' ').some((w) => FINAL32_CUIABANO.includes(w) || w === FINAL32_FALLBACK)).length).toBeGreaterThan(100);
  });

  it('final33 reserves its own names and towns, disjoint from every other part\'s lists, word by word (accents ignored); no Portuguese particle; every name fits the card\'s line', () => {
    const names = ownNames(FINAL33_NAMES, FINAL33_FALLBACK, [FINAL10_NAMES, FINAL11_NAMES, FINAL12_NAMES, FINAL13_NAMES, FINAL14_NAMES, FINAL15_NAMES, FINAL16_NAMES, FINAL17_NAMES, FINAL18_NAMES, FINAL19_NAMES, FINAL20_NAMES, FINAL21_NAMES, FINAL22_NAMES, FINAL23_NAMES, FINAL24_NAMES, FINAL25_NAMES, FINAL26_NAMES, FINAL27_NAMES, FINAL28_NAMES, FINAL29_NAMES, FINAL30_NAMES, FINAL31_NAMES, FINAL32_NAMES],
      [FINAL10_FALLBACK, FINAL11_FALLBACK, FINAL12_FALLBACK, FINAL13_FALLBACK, FINAL14_FALLBACK, FINAL15_FALLBACK, FINAL16_FALLBACK, FINAL17_FALLBACK, FINAL18_FALLBACK, FINAL19_FALLBACK, FINAL20_FALLBACK, FINAL21_FALLBACK, FINAL22_FALLBACK, FINAL23_FALLBACK, FINAL24_FALLBACK, FINAL25_FALLBACK, FINAL26_FALLBACK, FINAL27_FALLBACK, FINAL28_FALLBACK, FINAL29_FALLBACK, FINAL30_FALLBACK, FINAL31_FALLBACK, FINAL32_FALLBACK], PART_SEED.final33);
    // Its towns are Espírito Santo's only, none with a particle.
    expect(Object.keys(FINAL33_NAMES.cities)).toEqual(['ES']);
    expect(Object.values(FINAL33_NAMES.cities).flat().every((t) => !t.includes(' '))).toBe(true);
    expect(names.every((n) => !/\b(DE|DA|DO|DOS|DAS|E)\b/.test(n))).toBe(true);
    // Its accented letters (É, Ê, Í, Á, Ö) are rarer than final32's, German and Italian names having none, but
    // still measured (38 of the 282 names here), and so are the Pomeranian families (a surname of theirs in 164).
    expect(names.filter((n) => /[ÁÂÉÊÍÓÔÚÃÕÇÖ]/.test(n)).length).toBeGreaterThan(25);
    expect(FINAL33_POMERANO.length).toBeGreaterThanOrEqual(10);
    expect(FINAL33_POMERANO.every((s) => FINAL33_NAMES.surnames.includes(s))).toBe(true);
    expect(names.filter((n) => n.split(' ').some((w) => FINAL33_POMERANO.includes(w) || w === FINAL33_FALLBACK)).length).toBeGreaterThan(120);
  });

  it('no two parts\' seed ranges overlap (10 000 documents each at most)', () => {
    const starts = Object.values(PART_SEED).sort((a, b) => a - b);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(10_000);
    expect(PART_SEED.final5).toBe(600_000);
    expect(PART_SEED.final6).toBe(800_000);
    expect(PART_SEED.final7).toBe(1_000_000);
    expect(PART_SEED.final8).toBe(1_100_000);
    expect(PART_SEED.final9).toBe(1_200_000);
    expect(PART_SEED.final10).toBe(1_300_000);
    expect(PART_SEED.final11).toBe(1_400_000);
    expect(PART_SEED.final12).toBe(1_500_000);
    expect(PART_SEED.final13).toBe(1_600_000);
    expect(PART_SEED.final14).toBe(1_700_000);
    expect(PART_SEED.final15).toBe(1_800_000);
    expect(PART_SEED.final16).toBe(1_900_000);
    expect(PART_SEED.final17).toBe(2_000_000);
    expect(PART_SEED.final18).toBe(2_100_000);
    expect(PART_SEED.final19).toBe(2_200_000);
    expect(PART_SEED.final20).toBe(2_300_000);
    expect(PART_SEED.final21).toBe(2_400_000);
    expect(PART_SEED.final22).toBe(2_500_000);
    expect(PART_SEED.final23).toBe(2_600_000);
    expect(PART_SEED.final24).toBe(2_700_000);
    expect(PART_SEED.final25).toBe(2_800_000);
    expect(PART_SEED.final26).toBe(2_900_000);
    expect(PART_SEED.final27).toBe(3_000_000);
    expect(PART_SEED.final28).toBe(3_100_000);
    expect(PART_SEED.final29).toBe(3_200_000);
    expect(PART_SEED.final30).toBe(3_300_000);
    expect(PART_SEED.final31).toBe(3_400_000);
    expect(PART_SEED.final32).toBe(3_500_000);
    expect(PART_SEED.final33).toBe(3_600_000);
  });
});
