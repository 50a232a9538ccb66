/**
 * CNH OCR benchmark (`npm run bench:ocr [-- --n 40] [--pdf 20] [--quick] [--pool 2] [--verbose]`), prints tables:
 * per field exact-match rate and character error rate (CER) on a clean and a degraded image set, on a
 * perspective set (the degraded mix plus a photo taken at an angle, on a dark background; kept apart so
 * the degraded set means what it always did) and on CNH-e PDFs (text layer and image-only), validity-flag accuracy, and median / p95 seconds per document
 * for images and PDFs. Documents are synthetic (test/fixtures/cnh, seeded, fake people) and read one at
 * a time through `createCnhReader`, so times are per-document latency. Headline figures also go to
 * bench/out/ocr.summary.json for `npm run bench`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CNH_FIELD_NAMES, type CnhFieldName } from '../src/ocr/engine.js';
import { createCnhReader, type CnhReadResult } from '../src/ocr/index.js';
import { editDistance } from '../src/ocr/words.js';
import { generateCnh, type GeneratedCnh, type GenerateOptions } from '../test/fixtures/cnh/index.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const quick = args.includes('--quick');
const n = Number(arg('--n') ?? (quick ? 10 : 40));
const pdfN = Number(arg('--pdf') ?? Math.max(4, Math.round(n / 2)));
const poolSize = Number(arg('--pool') ?? 2);

const DATE_FIELDS = new Set<CnhFieldName>(['data_nascimento', 'data_validade', 'data_emissao', 'data_primeira_habilitacao']);

interface Outcome { doc: GeneratedCnh; res: CnhReadResult | null; seconds: number; cpuSeconds: number; error?: string }

/** Document i of a set: models alternate, every 5th is front-only, every 10th has a wrong CPF. */
function optionsFor(i: number, set: 'clean' | 'degraded' | 'perspective' | 'pdf'): GenerateOptions {
  const model = i % 2 === 0 ? '2022' : 'old';
  const o: GenerateOptions = { model, frontOnly: i % 5 === 4, badCpf: i % 10 === 7 };
  if (set === 'degraded' || set === 'perspective') o.degraded = true;
  if (set === 'perspective') o.perspective = true;
  if (set === 'pdf') o.format = Math.floor(i / 2) % 2 === 0 ? 'pdf-text' : 'pdf-image';
  return o;
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] : NaN;
};
const pct = (x: number): string => `${(100 * x).toFixed(1)}%`;

function table(headers: string[], rows: string[][]): string {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]): string => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  return [line(headers), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

/** Character error rate of one value: edit distance / truth length (empty truth: 0 or 1). */
function cer(got: string, want: string): number {
  if (!want) return got ? 1 : 0;
  return editDistance(got, want) / want.length;
}

interface FieldStats { exact: number; cer: number }

function fieldStats(outs: Outcome[]): Record<CnhFieldName, FieldStats> {
  const out = {} as Record<CnhFieldName, FieldStats>;
  for (const f of CNH_FIELD_NAMES) {
    let exact = 0, c = 0;
    for (const o of outs) {
      const got = o.res?.campos[f].valor ?? '';
      const want = o.doc.truth[f];
      if (got === want) exact++;
      c += cer(got, want);
    }
    out[f] = { exact: exact / outs.length, cer: c / outs.length };
  }
  return out;
}

/** Share of validity flags equal to the truth (CPF: check digits as generated; dates: printed ones). */
function flagAccuracy(outs: Outcome[]): { cpf: number; dates: number } {
  let cpfOk = 0, dateOk = 0, dateN = 0;
  for (const o of outs) {
    if ((o.res?.campos.cpf.valido ?? false) === o.doc.cpfValid) cpfOk++;
    for (const f of DATE_FIELDS) {
      dateN++;
      if ((o.res?.campos[f].valida ?? false) === (o.doc.truth[f] !== '')) dateOk++;
    }
  }
  return { cpf: cpfOk / outs.length, dates: dateOk / dateN };
}

async function main(): Promise<void> {
  console.log(`# CNH OCR benchmark: ${n} clean images, ${n} degraded images, ${n} perspective images, ${pdfN} PDFs; pool ${poolSize}; documents read one at a time`);
  const t0 = Date.now();
  const sets: Record<'clean' | 'degraded' | 'perspective' | 'pdf', GeneratedCnh[]> = { clean: [], degraded: [], perspective: [], pdf: [] };
  for (let i = 0; i < n; i++) sets.clean.push(await generateCnh(10_000 + i, optionsFor(i, 'clean')));
  for (let i = 0; i < n; i++) sets.degraded.push(await generateCnh(20_000 + i, optionsFor(i, 'degraded')));
  for (let i = 0; i < n; i++) sets.perspective.push(await generateCnh(40_000 + i, optionsFor(i, 'perspective')));
  for (let i = 0; i < pdfN; i++) sets.pdf.push(await generateCnh(30_000 + i, optionsFor(i, 'pdf')));
  console.log(`generated in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  const reader = await createCnhReader({ poolSize, maxQueue: 4 });
  // One warm-up read so the first measured document does not pay for lazy loading (mupdf, JIT).
  await reader.read((await generateCnh(1, { model: '2022', format: 'pdf-image' })).bytes);
  const results: Record<string, Outcome[]> = {};
  for (const [name, docs] of Object.entries(sets)) {
    results[name] = [];
    for (const doc of docs) {
      const t = performance.now();
      const cpu = process.cpuUsage();
      const cpuSeconds = (): number => {
        const d = process.cpuUsage(cpu);
        return (d.user + d.system) / 1e6;
      };
      try {
        const res = await reader.read(doc.bytes);
        results[name].push({ doc, res, seconds: (performance.now() - t) / 1000, cpuSeconds: cpuSeconds() });
      } catch (err) {
        results[name].push({ doc, res: null, seconds: (performance.now() - t) / 1000, cpuSeconds: cpuSeconds(), error: String(err) });
      }
    }
    process.stdout.write(`read ${name}: ${docs.length} documents\n`);
  }
  await reader.close();

  const stats = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, fieldStats(v)])) as Record<string, Record<CnhFieldName, FieldStats>>;
  const target = (set: string): number => (set === 'degraded' || set === 'perspective' ? 0.9 : 0.98);
  console.log('\n## Per field: exact match (CER)\n');
  console.log(table(['field', `clean (n=${n})`, `degraded (n=${n})`, `perspective (n=${n})`, `pdf (n=${pdfN})`], CNH_FIELD_NAMES.map((f) => [
    f, ...['clean', 'degraded', 'perspective', 'pdf'].map((s) => `${pct(stats[s][f].exact)} (${stats[s][f].cer.toFixed(3)})${stats[s][f].exact < target(s) ? ' !' : ''}`),
  ])));
  const all = (s: string): number => CNH_FIELD_NAMES.reduce((a, f) => a + stats[s][f].exact, 0) / CNH_FIELD_NAMES.length;
  const minField = (s: string): number => Math.min(...CNH_FIELD_NAMES.map((f) => stats[s][f].exact));
  const docsExact = (s: string): number => results[s].filter((o) => CNH_FIELD_NAMES.every((f) => (o.res?.campos[f].valor ?? '') === o.doc.truth[f])).length / results[s].length;
  console.log(`\n"!": below the target (98% clean and PDF, 90% degraded and perspective).\n`);
  console.log(table(['set', 'mean exact over fields', 'worst field', 'documents fully right', 'errors'], ['clean', 'degraded', 'perspective', 'pdf'].map((s) => [
    s, pct(all(s)), pct(minField(s)), pct(docsExact(s)), String(results[s].filter((o) => o.error).length),
  ])));

  const flags = Object.fromEntries(Object.entries(results).map(([k, v]) => [k, flagAccuracy(v)]));
  console.log('\n## Validity flags: share equal to the truth\n');
  console.log(table(['set', 'cpf.valido', 'dates.valida'], Object.entries(flags).map(([k, v]) => [k, pct(v.cpf), pct(v.dates)])));

  const grades = (s: string): string => {
    const c: Record<string, number> = {};
    for (const o of results[s]) if (o.res) c[o.res.qualidade_imagem] = (c[o.res.qualidade_imagem] ?? 0) + 1;
    return ['excelente', 'boa', 'regular', 'ruim'].map((g) => `${g} ${c[g] ?? 0}`).join(', ');
  };
  const sel = (os: Outcome[], f: (o: Outcome) => boolean = () => true): Outcome[] => os.filter(f);
  const isText = (o: Outcome): boolean => o.doc.options.format === 'pdf-text';
  const groups: Array<[string, Outcome[], string]> = [
    ['image, clean', results.clean, ''],
    ['image, degraded', results.degraded, ''],
    ['image, all', [...results.clean, ...results.degraded], '<= 1.5'],
    ['image, perspective', results.perspective, ''],
    ['PDF, text layer', sel(results.pdf, isText), ''],
    ['PDF, image only', sel(results.pdf, (o) => !isText(o)), ''],
    ['PDF, all', results.pdf, '<= 2'],
  ];
  const images = groups[2][1].map((o) => o.seconds);
  const pdfAll = results.pdf.map((o) => o.seconds);
  // groups[2] ('image, all') stays clean + degraded, as before the perspective set was added.
  console.log('\n## Seconds per document (one at a time; wall clock, and CPU seconds of the process incl. workers)\n');
  console.log(table(['kind', 'n', 'median s', 'p95 s', 'median CPU s', 'target median'], groups.map(([k, os, t]) => [
    k, String(os.length), median(os.map((o) => o.seconds)).toFixed(2), p95(os.map((o) => o.seconds)).toFixed(2), median(os.map((o) => o.cpuSeconds)).toFixed(2), t,
  ])));
  const { loadavg, availableParallelism } = await import('node:os');
  console.log(`\nMachine: ${availableParallelism()} cores, load average (1 min) at the end ${loadavg()[0].toFixed(1)}: wall times include waiting for cores used by other processes.`);
  console.log(`\nQuality grades: clean: ${grades('clean')}; degraded: ${grades('degraded')}; perspective: ${grades('perspective')}; pdf: ${grades('pdf')}`);
  for (const s of ['clean', 'degraded', 'perspective', 'pdf']) for (const o of results[s]) if (o.error) console.log(`error (${s}): ${o.error}`);
  if (args.includes('--verbose')) {
    console.log('\n## Mismatches (set, document options, field: read / truth)\n');
    for (const s of ['clean', 'degraded', 'perspective', 'pdf']) {
      for (const o of results[s]) {
        for (const f of CNH_FIELD_NAMES) {
          const got = o.res?.campos[f].valor ?? '';
          if (got !== o.doc.truth[f]) console.log(`${s} ${JSON.stringify(o.doc.options)} seed ${o.doc.person.espelho}: ${f}: "${got}" / "${o.doc.truth[f]}"`);
        }
      }
    }
  }

  const outDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'ocr.summary.json'), JSON.stringify([
    { metric: `worst field exact, clean (n=${n})`, value: pct(minField('clean')), target: '>= 98%' },
    { metric: `worst field exact, degraded (n=${n})`, value: pct(minField('degraded')), target: '>= 90%' },
    { metric: `worst field exact, pdf (n=${pdfN})`, value: pct(minField('pdf')), target: '>= 98%' },
    { metric: 'cpf.valido accuracy (all sets)', value: pct((flags.clean.cpf + flags.degraded.cpf + flags.pdf.cpf) / 3) },
    { metric: 'median s per image', value: median(images).toFixed(2), target: '<= 1.5' },
    { metric: 'p95 s per image', value: p95(images).toFixed(2) },
    { metric: 'median s per PDF', value: median(pdfAll).toFixed(2), target: '<= 2' },
    { metric: 'p95 s per PDF', value: p95(pdfAll).toFixed(2) },
  ], null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
