/**
 * CNH OCR benchmark on the widened synthetic set (test/fixtures/cnh/widened.ts, issue #17):
 *
 *   npm run bench:ocr -- [--part tuning|heldout|untouched|final|final2|final3|final4|final5|final6|final7|final8|final9|final10|final11|final12|final13|final14|final15|final16|final17|final18|final19|final20|final21|final22|final23|final24|final25|final26|final27|final28|final29|final30|final31|final32|final33|both] [--n 44] [--only 3,17] [--pool 1] [--budget-s 15] [--model fast|npm] [--verbose]
 *
 * `tuning` (seeds 100000+) may be tuned on; `heldout` (seeds 900000+) was run several times and its
 * errors seen once: a validation part now; `untouched` (seeds 700000+, with fonts and uneven light the
 * other parts never have) is run once, at the end of a tuning round, and gives the reported figures.
 * `final` (seeds 500000+, reserved fonts, light and names) was run by the lead once (96.7 %): seen since.
 * `final2` (seeds 300000+, also bold type, warm light, motion blur and its own names) is run by the lead
 * once, at the end of the third session on issue #17 (`--part final2 --n 88`); never while tuning.
 * `final3` (seeds 200000+, also monospaced bold type, values in another font than the labels, faded ink,
 * cool light, defocus and its own names) was run by the lead once, at the end of the fifth round
 * (`--part final3 --n 88`), and its misses chose the sixth round's changes: a validation part now.
 * `final4` (seeds 400000+, also thin type, values with tight or wide letter-spacing, bent paper, a phone's
 * sharpening, photos from further away, shared screenshots, scanned JPEG PDFs and its own names) was run
 * by the lead once, at the end of the sixth round (`--part final4 --n 88`, 96.7 %): its errors are seen.
 * `final5` (seeds 600000+, also the card held in a hand, a plastic sleeve, wooden or cloth surfaces, quarter
 * turns, fax-like 1-bit scans, a greyscale camera and its own names) was made at the start of the seventh
 * round, before its tuning, and run once by the lead at the end of the seventh round
 * (`--part final5 --n 88`, 92.3 %): its misses are seen, a validation part now.
 * `final6` (seeds 800000+, also a fold across the card, a denser security print, overexposed photos, the
 * kiosk's webcam, its own fonts and names) was made at the start of the eighth round, before its tuning: it
 * was run once by the lead at the end of the eighth round (`--part final6 --n 88`, 94.2 %): a validation part now.
 * `final7` (seeds 1000000+, also a scratched laminate, hard shadows, shear, a CNH-e printed at home and
 * scanned, its own fonts and names) was made at the start of the ninth round, before its tuning: it is run
 * once by the lead at the end of the ninth round (`--part final7 --n 88`, 95.5 %): a validation part now.
 * `final8` (seeds 1100000+, also stains, a photographed screen, values condensed or expanded, its own
 * names) was made during the ninth round, before its last change was merged, and run once by the lead at the
 * ninth round's end (`--part final8 --n 88`, 98.9 %): a validation part now.
 * `final9` (seeds 1200000+, also a wide-angle phone's lens, photocopies, yellowed laminates, values in
 * italic, its own names) was made at the start of the tenth round, before its tuning: it is run once by the
 * lead at the end of the tenth round (`--part final9 --n 88`, 96.4 %): a validation part now.
 * `final10` (seeds 1300000+, mostly a fresh sample of the whole widened set: the earlier parts' fonts and
 * effects drawn afresh, up to two card effects on one card; also a notary's stamp, its own names) was made
 * at the start of the eleventh round, before its tuning: it is run once by the lead at that round's end
 * (`--part final10 --n 88`, 96.2 %): a validation part now.
 * `final11` (seeds 1400000+, like final10 a fresh sample of the whole widened set, final10's notary stamp
 * among the effects drawn afresh; also cards upside down, a hologram's rainbow sheen, its own names) was made
 * at the start of the twelfth round, before its tuning: it is run once by the lead at that round's end
 * (`--part final11 --n 88`, 94.1 %): a validation part now.
 * `final12` (seeds 1500000+, like final10 and final11 a fresh sample of the whole widened set; also
 * home-printed paper copies of the card, handheld double exposures, its own names) was made at the start of
 * the thirteenth round, before its tuning, and run once by the lead at that round's end
 * (`--part final12 --n 88`, 90.6 %): a validation part now.
 * `final13` (seeds 1600000+, like final10-final12 a fresh sample of the whole widened set; also a card
 * printer's dead heating element, air bubbles under the laminate, a shallow depth of field on hand-held
 * close-ups, its own names) was made at the start of the fourteenth round, before its tuning: it is run
 * once by the lead at that round's end (`--part final13 --n 88`, 91.7 %): a validation part now.
 * `final14` (seeds 1700000+, like final10-final13 a fresh sample of the whole widened set; also
 * photographed cards lying on a printed application form, mains flicker bands, dust streaks along a scan,
 * its own names) was made at the start of the fifteenth round, before its tuning: it is run once by the
 * lead at that round's end (`--part final14 --n 88`, 79.6 %): a validation part now.
 * `final15` (seeds 1800000+, like final10-final14 a fresh sample of the whole widened set; also print
 * worn off a card carried in a wallet, a phone lens's lateral chromatic aberration, a rolling shutter's
 * wobble, its own names) was made at the start of the sixteenth round, before its tuning: it is run once by
 * the lead at that round's end (`--part final15 --n 88`, 93.9 %): a validation part now.
 * `final16` (seeds 1900000+, like final10-final15 a fresh sample of the whole widened set; also a
 * highlighter's band over the card, a ballpoint pen's mark across its print, a frame forwarded as a dithered
 * palette image, its own names) was made at the start of the seventeenth round, before its tuning: it is run
 * once by the lead at that round's end (`--part final16 --n 88`, 79.5 %): a validation part now.
 * `final17` (seeds 2000000+, like final10-final16 a fresh sample of the whole widened set; also a strip
 * of clear tape across the card, a frame grabbed from an interlaced video source, a frame forwarded two or
 * three times as a JPEG, its own names) was made at the start of the eighteenth round, before its tuning: it
 * is run once by the lead at that round's end (`--part final17 --n 88`, 72.7 %): a validation part now.
 * `final18` (seeds 2100000+, like final10-final17 a fresh sample of the whole widened set; also ink bled
 * into the card's stock, a wide-angle lens's barrel distortion, a cheap sensor's impulse noise, its own
 * names) was made at the start of the nineteenth round, before its tuning: it is run once by the lead at
 * that round's end (`--part final18 --n 88`, 75.9 %): a validation part now.
 * `final19` (seeds 2200000+, like final10-final18 a fresh sample of the whole widened set; also a lens's
 * vignetting, a frame mirrored left to right, a small frame blown up by nearest-neighbour scaling, its own
 * names) was made at the start of the twentieth round, before its tuning: it is run once by the lead at
 * that round's end (`--part final19 --n 88`, 74.8 %): a validation part now.
 * `final20` (seeds 2300000+, like final10-final19 a fresh sample of the whole widened set; also water drops
 * on the card, moiré bands across a camera's frame, a phone's HDR tone mapping, its own names) was made at
 * the start of the twenty-first round, before its tuning: it is run once by the lead at that round's end
 * (`--part final20 --n 88`, 74.0 %): a validation part now.
 * `final21` (seeds 2400000+, like final10-final20 a fresh sample of the whole widened set; also a crumpled
 * card, a laminate's orange-peel glints, a lens flare across a camera's frame, its own names) was made at the
 * start of the twenty-second round, before its tuning: it is run once by the lead at that round's end
 * (`--part final21 --n 88`, 81.4 %): a validation part now.
 * `final22` (seeds 2500000+, like final10-final21 a fresh sample of the whole widened set; also a finger's
 * greasy smudge on the card, a sticker's residue, a frame posterised with an ordered dither, its own names)
 * was made at the start of the twenty-third round, before its tuning: it is run once by the lead at that
 * round's end (`--part final22 --n 88`, 79.3 %): a validation part now.
 * `final23` (seeds 2600000+, like final10-final22 a fresh sample of the whole widened set; also a colour copy
 * of the card through a CMYK halftone screen, a sun-faded card, a phone's noise reduction smearing fine print,
 * its own names) was made at the start of the twenty-fourth round, before its tuning: it is run once by the
 * lead at that round's end (`--part final23 --n 88`, 78.9 %): a validation part now.
 * `final24` (seeds 2700000+, like final10-final23 a fresh sample of the whole widened set; also a monochrome
 * laser copy of the card whose toner runs low, a window reflected on the card's laminate, a phone turned while
 * it exposed, its own names) was made at the start of the twenty-fifth round, before its tuning: it is run once
 * by the lead at that round's end (`--part final24 --n 88`, 75.8 %): a validation part now.
 * `final25` (seeds 2800000+, like final10-final24 a fresh sample of the whole widened set; also an inkjet
 * printout of the card whose print head is out of line, a cheap camera's Bayer sensor without an anti-aliasing
 * filter, a sheet-fed scanner whose feed stutters, its own names) was made at the start of the twenty-sixth
 * round, before its tuning: it is run once by the lead at that round's end (`--part final25 --n 88`, 67.0 %): a validation part now.
 * `final26` (seeds 2900000+, like final10-final25 a fresh sample of the whole widened set; also a screenshot
 * of the CNH-e on a desktop with sub-pixel text rendering, some in the app's dark theme, a laser printout or
 * copy whose drum ghosts, a phone lens smudged by a finger, its own names) was made at the start of the
 * twenty-seventh round, before its tuning: it is run once by the lead at that round's end (`--part final26 --n 88`, 75.5 %): a validation part now.
 * `final27` (seeds 3000000+, like final10-final26 a fresh sample of the whole widened set; also the card seen
 * through a plastic ID holder's window, a phone's portrait mode blurring the card's edges, a document-scanner
 * app's enhance filter, its own names: long Portuguese names with several particles, immigrant families) was
 * made at the start of the twenty-eighth round, before its tuning: it is run once by the lead at that round's end (`--part final27 --n 88`, 93.2 %): a validation part now.
 * `final28` (seeds 3100000+, like final10-final27 a fresh sample of the whole widened set; also a phone's rolling
 * shutter under a flickering lamp, soft horizontal bands over the frame, and its own names: given names,
 * surnames and towns of Brazil's Northeast) was made in the twenty-ninth round after its first two reader changes and
 * before anything was looked at on it: it was run once at that round's end (`--part final28 --n 88`, 97.0 %): a validation part now.
 * `final29` (seeds 3200000+, like final10-final28 a fresh sample of the whole widened set; also a phone's night-mode
 * denoiser, fine print smoothed into flat patches and sharpened with halos along its edges, and its own names: given
 * names, surnames and towns of Minas Gerais and Goiás, many with an accented capital) was made in the thirtieth round
 * after its reader changes and before anything was looked at on it: it was run once at that round's end (`--part final29 --n 88`, 92.0 %): a validation part now.
 * `final30` (seeds 3300000+, like final10-final29 a fresh sample of the whole widened set; also a phone's digital
 * zoom, the print averaged down to 1/1.8-1/3 of the frame's resolution and interpolated smoothly back up, mildly
 * sharpened, and its own names: given names, surnames and towns of Brazil's North, Pará, Amazonas, Acre and Amapá)
 * was made at the thirty-first round's start, before anything was looked at on it (the round's reader changes were made
 * on final29's errors): it was run once at that round's end (`--part final30 --n 88`, 96.2 %): a validation part now.
 * `final31` (seeds 3400000+, like final10-final30 a fresh sample of the whole widened set; also a low-end phone's
 * camera, colour noise in blotches a few pixels across, worst in the dark print, the colour kept on blocks of 2 x 2,
 * 4 x 1 or 4 x 2 px, a white balance's cast and dark corners, and its own names: given names, surnames and towns of
 * Brazil's far South, its Azorean families of Santa Catarina and Rio Grande do Sul and the Pampa's gaúcho families)
 * was made at the thirty-second round's start, before anything was looked at on it (the round's reader changes were
 * made on final30's errors): it was run once at that round's end (`--part final31 --n 88`, 91.9 %): a validation part now.
 * `final32` (seeds 3500000+, like final10-final31 a fresh sample of the whole widened set; also a sharing watermark, a
 * phrase such as SOMENTE PARA CADASTRO, half of them dated, in translucent bold rows turned over the whole picture, and
 * its own names: given names, surnames and towns of Mato Grosso, Mato Grosso do Sul and Tocantins) was made at the
 * thirty-third round's start, before anything was looked at on it (the round's reader changes were made on final31's
 * errors): it was run once at that round's end (`--part final32 --n 88`, 89.4 %): a validation part now.
 * `final33` (seeds 3600000+, like final10-final32 a fresh sample of the whole widened set; also a paper clip pushed onto
 * one of the card's side edges, a U of steel or coloured wire with a shadow over the portrait or beside the fields, and
 * its own names: given names, surnames and towns of Espírito Santo) was made at the thirty-fourth round's start, before
 * anything was looked at on it: it was run once at that round's end (`--part final33 --n 88`, 95.0 %): a validation part now.
 * `both`: tuning and heldout. n documents per part (default 44: 2 models x 11 conditions x 2; final5-final33: 88);
 * `--only`: just these document indices (comma-separated) of each part, to look at a few misses again.
 * Prints, per part: exact match per field (and CER), per card model, per condition, per font (with its
 * median CPU s), documents fully right, validity-flag accuracy, quality grades, and seconds per document (median, p95; images,
 * image-only PDFs, text PDFs), read one at a time through `createCnhReader` (latency, not throughput),
 * and CPU seconds per document (all the process's threads: a figure load on other cores barely moves).
 * Headline figures also go to bench/out/ocr.summary.json for `npm run bench`. `--model` picks the
 * recognition model (src/ocr/pool.ts portugueseModel; default: the npm package's, as the station;
 * `fast`: Debian's tessdata_fast where tesseract-ocr-por is installed, for comparison only); the
 * model read with is printed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CNH_FIELD_NAMES, type CnhFieldName } from '../src/ocr/engine.js';
import { createCnhReader, type CnhReadResult } from '../src/ocr/index.js';
import { portugueseModel, type OcrModel } from '../src/ocr/pool.js';
import { editDistance } from '../src/ocr/words.js';
import { CONDITIONS, FINAL2_FONTS, FINAL3_FONTS, FINAL4_FONTS, PART_SEED, UNTOUCHED_FONTS, generateWidened, type Part, type WidenedCnh } from '../test/fixtures/cnh/widened.js';
import { FINAL6_FONTS } from '../test/fixtures/cnh/final6.js';
import { FINAL7_FONTS } from '../test/fixtures/cnh/final7.js';
import { CARD_EFFECTS, EFFECT_NAMES } from '../test/fixtures/cnh/final10.js';

const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const partArg = arg('--part') ?? 'both';
const parts: Part[] = partArg === 'both' ? ['tuning', 'heldout'] : [partArg as Part];
if (!parts.every((p) => p in PART_SEED)) throw new Error(`--part: ${Object.keys(PART_SEED).join(', ')} or both, not ${partArg}`);
/** Parts made as a fresh sample of the whole widened set after final10's pattern (final10.ts freshDraws). */
const FRESH_PARTS: readonly string[] = ['final10', 'final11', 'final12', 'final13', 'final14', 'final15', 'final16', 'final17', 'final18', 'final19', 'final20', 'final21', 'final22', 'final23', 'final24', 'final25', 'final26', 'final27', 'final28', 'final29', 'final30', 'final31', 'final32', 'final33'];
/** Parts of 88 documents (2 models x 11 conditions x 4). */
const LONG_PARTS: readonly string[] = ['final5', 'final6', 'final7', 'final8', 'final9', ...FRESH_PARTS];
const n = Number(arg('--n') ?? (LONG_PARTS.includes(partArg) ? 88 : 44));
const poolSize = Number(arg('--pool') ?? 1);
/**
 * `--budget-s S`: the decode stage's time budget per document, s (default the product's, budget.ts 15 s). It
 * is wall time on the decode worker, so a machine loaded by other work refuses documents it would read on an
 * idle one; a larger budget keeps such runs comparable. CPU seconds per document do not depend on it.
 */
const budgetS = arg('--budget-s') !== undefined ? Number(arg('--budget-s')) : undefined;
if (budgetS !== undefined && !(budgetS > 0)) throw new Error(`--budget-s: a positive number of seconds, not ${arg('--budget-s')}`);
const only = arg('--only')?.split(',').map(Number);
if (only?.some((i) => !Number.isInteger(i) || i < 0)) throw new Error(`--only: comma-separated document indices, not ${arg('--only')}`);
const modelArg = arg('--model');
if (modelArg !== undefined && modelArg !== 'fast' && modelArg !== 'npm') throw new Error(`--model: fast or npm, not ${modelArg}`);
const model = portugueseModel(modelArg as OcrModel['id'] | undefined);

/** seconds: wall time of the read; cpu: CPU seconds of the whole process meanwhile (recogniser and decode threads included). */
interface Outcome { doc: WidenedCnh; res: CnhReadResult | null; seconds: number; cpu: number; error?: string }

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN;
};
const p95 = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)] : NaN;
};
const pct = (x: number): string => (Number.isNaN(x) ? '-' : `${(100 * x).toFixed(1)}%`);

function table(headers: string[], rows: string[][]): string {
  const w = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]): string => `| ${r.map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  return [line(headers), `|${w.map((x) => '-'.repeat(x + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const got = (o: Outcome, f: CnhFieldName): string => o.res?.campos[f].valor ?? '';
const cer = (a: string, b: string): number => (b ? editDistance(a, b) / b.length : a ? 1 : 0);
/** Exact-match share over all fields of `os`. */
const exactAll = (os: Outcome[]): number => {
  let ok = 0, all = 0;
  for (const o of os) for (const f of CNH_FIELD_NAMES) { all++; if (got(o, f) === o.doc.truth[f]) ok++; }
  return all ? ok / all : NaN;
};
const fullyRight = (os: Outcome[]): number => os.filter((o) => CNH_FIELD_NAMES.every((f) => got(o, f) === o.doc.truth[f])).length / os.length;

function report(part: Part, outs: Outcome[]): Record<string, string> {
  console.log(`\n# Part ${part} (n=${outs.length})\n`);
  console.log('## Per field: exact match (mean CER)\n');
  const fieldRows = CNH_FIELD_NAMES.map((f) => {
    const ex = outs.filter((o) => got(o, f) === o.doc.truth[f]).length / outs.length;
    const c = outs.reduce((s, o) => s + cer(got(o, f), o.doc.truth[f]), 0) / outs.length;
    return [f, pct(ex), c.toFixed(3), ex < 0.95 ? '!' : ''];
  });
  console.log(table(['field', 'exact', 'CER', '< 95%'], fieldRows));
  const worst = Math.min(...CNH_FIELD_NAMES.map((f) => outs.filter((o) => got(o, f) === o.doc.truth[f]).length / outs.length));
  console.log('\n## Per card model\n');
  console.log(table(['model', 'n', 'exact over fields', 'documents fully right'], (['2022', 'old'] as const).map((m) => {
    const os = outs.filter((o) => o.doc.model === m);
    return [m, String(os.length), pct(exactAll(os)), pct(fullyRight(os))];
  })));
  console.log('\n## Per condition\n');
  console.log(table(['condition', 'n', 'exact over fields', 'documents fully right', 'median s', 'errors'], CONDITIONS.map((c) => {
    const os = outs.filter((o) => o.doc.condition === c);
    return [c, String(os.length), pct(exactAll(os)), os.length ? pct(fullyRight(os)) : '-', os.length ? median(os.map((o) => o.seconds)).toFixed(2) : '-', String(os.filter((o) => o.error).length)];
  })));
  console.log('\n## Per font (images and image-only PDFs; text-layer PDFs are not recognised)\n');
  const fonts = [...new Set(outs.filter((o) => o.doc.condition !== 'pdf-text').map((o) => o.doc.font))].sort();
  console.log(table(['font', 'n', 'exact over fields', 'documents fully right', 'median CPU s'], fonts.map((f) => {
    const os = outs.filter((o) => o.doc.font === f && o.doc.condition !== 'pdf-text');
    return [f, String(os.length), pct(exactAll(os)), pct(fullyRight(os)), median(os.map((o) => o.cpu)).toFixed(2)];
  })));
  if (['untouched', 'final', 'final2', 'final3', 'final4', ...LONG_PARTS].includes(part)) {
    console.log('\n## Variants only this part has\n');
    const reserved = (o: Outcome): boolean => (UNTOUCHED_FONTS as readonly string[]).includes(o.doc.font);
    const bold = (o: Outcome): boolean => (FINAL2_FONTS as readonly string[]).includes(o.doc.font);
    const monoBold = (o: Outcome): boolean => (FINAL3_FONTS as readonly string[]).includes(o.doc.font);
    const thin = (o: Outcome): boolean => (FINAL4_FONTS as readonly string[]).includes(o.doc.font);
    const own6 = (o: Outcome): boolean => (FINAL6_FONTS as readonly string[]).includes(o.doc.font);
    const own7 = (o: Outcome): boolean => (FINAL7_FONTS as readonly string[]).includes(o.doc.font);
    const groups: Array<[string, Outcome[]]> = [
      ['reserved fonts', outs.filter(reserved)], ...(part === 'final2' ? [['bold type', outs.filter(bold)] as [string, Outcome[]]] : []),
      ...(part === 'final3' ? [['monospaced bold type', outs.filter(monoBold)] as [string, Outcome[]]] : []),
      ...(part === 'final4' ? [['thin type', outs.filter(thin)] as [string, Outcome[]]] : []),
      ['other fonts', outs.filter((o) => !reserved(o) && !bold(o) && !monoBold(o) && !thin(o) && !own6(o) && !own7(o))],
      ['uneven light', outs.filter((o) => o.doc.shadowed)],
      ...(part === 'final2' ? [['warm colour cast', outs.filter((o) => o.doc.warmCast)], ['motion blur', outs.filter((o) => o.doc.motionBlur)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final3' ? [['values in another font', outs.filter((o) => o.doc.valueFont)], ['faded ink', outs.filter((o) => o.doc.faded)],
        ['cool colour cast', outs.filter((o) => o.doc.coolCast)], ['defocus', outs.filter((o) => o.doc.defocus)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final4' ? [['values letter-spaced', outs.filter((o) => o.doc.tracking !== undefined)], ['bent paper', outs.filter((o) => o.doc.bent)],
        ['phone sharpening', outs.filter((o) => o.doc.phoneProcessed)], ['photo from further away', outs.filter((o) => o.doc.far)],
        ['shared screenshot', outs.filter((o) => o.doc.shared)], ['scanned JPEG PDF', outs.filter((o) => o.doc.scanned)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final5' ? [['held in a hand', outs.filter((o) => o.doc.held)], ['plastic sleeve', outs.filter((o) => o.doc.sleeve)],
        ['wooden surface', outs.filter((o) => o.doc.surface === 'wood')], ['checked cloth surface', outs.filter((o) => o.doc.surface === 'cloth')],
        ['quarter turn', outs.filter((o) => o.doc.quarterTurn !== undefined)], ['fax-like scan (1 bit)', outs.filter((o) => o.doc.fax)],
        ['greyscale camera', outs.filter((o) => o.doc.greyscale)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final6' ? [['own fonts (FINAL6_FONTS)', outs.filter(own6)],
        ['fold across the card', outs.filter((o) => o.doc.crease)], ['denser security print', outs.filter((o) => o.doc.guilloche)],
        ['overexposed photo', outs.filter((o) => o.doc.overexposed)], ['kiosk webcam', outs.filter((o) => o.doc.webcam)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final7' ? [['own fonts (FINAL7_FONTS)', outs.filter(own7)],
        ['scratched laminate', outs.filter((o) => o.doc.scratched)], ['hard shadow', outs.filter((o) => o.doc.hardShadow)],
        ['shear', outs.filter((o) => o.doc.shear)], ['printed at home and scanned', outs.filter((o) => o.doc.banding)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final8' ? [['stains', outs.filter((o) => o.doc.stained)], ['photographed screen', outs.filter((o) => o.doc.screenPhoto)],
        ['values condensed', outs.filter((o) => (o.doc.valueScaleX ?? 1) < 1)], ['values expanded', outs.filter((o) => (o.doc.valueScaleX ?? 1) > 1)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final9' ? [['wide-angle lens', outs.filter((o) => o.doc.lens)], ['photocopy', outs.filter((o) => o.doc.photocopy)],
        ['yellowed laminate', outs.filter((o) => o.doc.aged)], ['values in italic', outs.filter((o) => o.doc.italicValues)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final11' ? [['upside down', outs.filter((o) => o.doc.upsideDown)], ['hologram sheen', outs.filter((o) => o.doc.hologram)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final12' ? [['printed copy', outs.filter((o) => o.doc.printedCopy)], ['double exposure', outs.filter((o) => o.doc.doubled)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final13' ? [['dead printer element', outs.filter((o) => (o.doc.deadLines ?? 0) > 0)], ['bubbles under the laminate', outs.filter((o) => (o.doc.bubbles ?? 0) > 0)],
        ['shallow depth of field', outs.filter((o) => o.doc.shallow)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final14' ? [['lying on a printed form', outs.filter((o) => o.doc.onForm)], ['mains flicker bands', outs.filter((o) => o.doc.flicker)],
        ['dust streaks along a scan', outs.filter((o) => (o.doc.dustStreaks ?? 0) > 0)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final15' ? [['print worn off', outs.filter((o) => o.doc.worn)], ['lens colour fringes', outs.filter((o) => o.doc.fringed)],
        ['rolling-shutter wobble', outs.filter((o) => o.doc.wobble)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final16' ? [['highlighter over the card', outs.filter((o) => o.doc.highlighted)], ['ballpoint pen mark', outs.filter((o) => o.doc.pen !== undefined)],
        ['forwarded as a palette image', outs.filter((o) => o.doc.paletted)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final17' ? [['clear tape across the card', outs.filter((o) => o.doc.taped)], ['interlaced video frame', outs.filter((o) => o.doc.interlaced)],
        ['forwarded two or three times', outs.filter((o) => (o.doc.forwarded ?? 0) > 0)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final18' ? [['ink bled into the card', outs.filter((o) => o.doc.bled)], ['wide-angle barrel distortion', outs.filter((o) => o.doc.barrel)],
        ['sensor impulse noise', outs.filter((o) => o.doc.specks)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final19' ? [['lens vignetting', outs.filter((o) => o.doc.vignetted)], ['mirrored frame', outs.filter((o) => o.doc.mirrored)],
        ['small frame blown up', outs.filter((o) => o.doc.blocky)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final20' ? [['water drops on the card', outs.filter((o) => o.doc.drops)], ['moiré', outs.filter((o) => o.doc.moire)],
        ['phone HDR tone mapping', outs.filter((o) => o.doc.hdr)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final21' ? [['crumpled card', outs.filter((o) => o.doc.crumpled)], ['laminate glints', outs.filter((o) => o.doc.glints)],
        ['lens flare', outs.filter((o) => o.doc.flare)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final22' ? [['greasy smudge', outs.filter((o) => o.doc.smudged)], ['sticker residue', outs.filter((o) => o.doc.residue)],
        ['ordered dither', outs.filter((o) => o.doc.dithered)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final23' ? [['halftone colour copy', outs.filter((o) => o.doc.halftoned)], ['sun-faded card', outs.filter((o) => o.doc.sunFaded)],
        ['noise reduction smear', outs.filter((o) => o.doc.smeared)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final24' ? [['toner-starved copy', outs.filter((o) => o.doc.tonerStarved)], ['window reflection', outs.filter((o) => o.doc.windowed)],
        ['rotational motion blur', outs.filter((o) => o.doc.swung)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final25' ? [['inkjet out of line', outs.filter((o) => o.doc.misaligned)], ['Bayer sensor, no anti-aliasing', outs.filter((o) => o.doc.bayered)],
        ['stuttering scanner feed', outs.filter((o) => o.doc.stuttered)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final26' ? [['desktop sub-pixel screenshot', outs.filter((o) => o.doc.subpixel)], ['desktop dark theme', outs.filter((o) => o.doc.darkTheme)],
        ['laser drum ghost', outs.filter((o) => o.doc.drumGhosted)], ['fuser smear', outs.filter((o) => o.doc.fuserSmeared)],
        ['smudged lens', outs.filter((o) => o.doc.lensSmudged)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final27' ? [['plastic ID holder window', outs.filter((o) => o.doc.holderWindowed)], ['portrait-mode blur', outs.filter((o) => o.doc.portraitBlurred)],
        ['document-scanner app filter', outs.filter((o) => o.doc.scanAppEnhanced)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final28' ? [['rolling-shutter flicker bands', outs.filter((o) => o.doc.flickerBanded)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final29' ? [['night-mode denoiser', outs.filter((o) => o.doc.nightDenoised)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final30' ? [['digital zoom', outs.filter((o) => o.doc.digitalZoomed)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final31' ? [['low-end phone camera', outs.filter((o) => o.doc.lowEndPhone)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final32' ? [['sharing watermark', outs.filter((o) => o.doc.watermarked)]] as Array<[string, Outcome[]]> : []),
      ...(part === 'final33' ? [['paper clip', outs.filter((o) => o.doc.paperClipped)]] as Array<[string, Outcome[]]> : []),
      ...(FRESH_PARTS.includes(part) ? [['notary\'s stamp', outs.filter((o) => o.doc.notarised)],
        ['two card effects', outs.filter((o) => (o.doc.mixed ?? []).filter((e) => CARD_EFFECTS.includes(e)).length === 2)],
        ...Object.entries(EFFECT_NAMES).map(([e, name]) => [`${name} (earlier part's effect)`, outs.filter((o) => (o.doc.mixed ?? []).includes(e))] as [string, Outcome[]]),
        ['values in another face', outs.filter((o) => o.doc.valueFont && !o.doc.italicValues)], ['values in italic', outs.filter((o) => o.doc.italicValues)],
        ['values condensed or expanded', outs.filter((o) => o.doc.valueScaleX !== undefined)], ['values letter-spaced', outs.filter((o) => o.doc.tracking !== undefined)]] as Array<[string, Outcome[]]> : []),
    ];
    console.log(table(['variant', 'n', 'exact over fields', 'documents fully right'], groups.map(([name, os]) => [name, String(os.length), pct(exactAll(os)), os.length ? pct(fullyRight(os)) : '-'])));
  }
  let cpfOk = 0, dateOk = 0, dateN = 0;
  for (const o of outs) {
    if ((o.res?.campos.cpf.valido ?? false) === o.doc.cpfValid) cpfOk++;
    for (const f of ['data_nascimento', 'data_validade', 'data_emissao', 'data_primeira_habilitacao'] as const) {
      dateN++;
      if ((o.res?.campos[f].valida ?? false) === (o.doc.truth[f] !== '')) dateOk++;
    }
  }
  const grades: Record<string, number> = {};
  for (const o of outs) if (o.res) grades[o.res.qualidade_imagem] = (grades[o.res.qualidade_imagem] ?? 0) + 1;
  // Confidently wrong: a non-empty value that is not the truth, reported with confidence >= 0.8.
  // The price of doubting: right non-empty values reported under 0.8 (listed as low confidence).
  let wrongConfident = 0, wrong = 0, rightUnsure = 0;
  for (const o of outs) for (const f of CNH_FIELD_NAMES) {
    const v = got(o, f);
    if (v && v !== o.doc.truth[f]) { wrong++; if ((o.res?.campos[f].confianca ?? 0) >= 0.8) wrongConfident++; }
    if (v && v === o.doc.truth[f] && (o.res?.campos[f].confianca ?? 0) < 0.8) rightUnsure++;
  }
  const images = outs.filter((o) => !o.doc.condition.startsWith('pdf'));
  const pdfImage = outs.filter((o) => o.doc.condition === 'pdf-image');
  const pdfText = outs.filter((o) => o.doc.condition === 'pdf-text');
  console.log('\n## Overall\n');
  console.log(table(['measure', 'value'], [
    ['exact match over all fields', pct(exactAll(outs))],
    ['worst field', pct(worst)],
    ['documents fully right', pct(fullyRight(outs))],
    ['cpf.valido equal to the truth', pct(cpfOk / outs.length)],
    ['dates.valida equal to the truth', pct(dateOk / dateN)],
    ['wrong non-empty values / of them with confianca >= 0.8', `${wrong} / ${wrongConfident}`],
    ['right non-empty values with confianca < 0.8', String(rightUnsure)],
    ['quality grades', ['excelente', 'boa', 'regular', 'ruim'].map((g) => `${g} ${grades[g] ?? 0}`).join(', ')],
    ['median (p95) s per image', `${median(images.map((o) => o.seconds)).toFixed(2)} (${p95(images.map((o) => o.seconds)).toFixed(2)})`],
    ['median (p95) s per image-only PDF', `${median(pdfImage.map((o) => o.seconds)).toFixed(2)} (${p95(pdfImage.map((o) => o.seconds)).toFixed(2)})`],
    ['median s per text-layer PDF', median(pdfText.map((o) => o.seconds)).toFixed(2)],
    ['median (p95) CPU s per image', `${median(images.map((o) => o.cpu)).toFixed(2)} (${p95(images.map((o) => o.cpu)).toFixed(2)})`],
    ['median (p95) CPU s per image-only PDF', `${median(pdfImage.map((o) => o.cpu)).toFixed(2)} (${p95(pdfImage.map((o) => o.cpu)).toFixed(2)})`],
    ['errors', String(outs.filter((o) => o.error).length)],
  ]));
  for (const o of outs) if (o.error) console.log(`error: ${o.doc.part} #${o.doc.index} ${o.doc.condition}: ${o.error}`);
  if (args.includes('--verbose')) {
    console.log('\n## Mismatches\n');
    for (const o of outs) for (const f of CNH_FIELD_NAMES) {
      if (got(o, f) !== o.doc.truth[f]) console.log(`${o.doc.part} #${o.doc.index} ${o.doc.model} ${o.doc.condition} ${o.doc.font}: ${f}: "${got(o, f)}" (${o.res?.campos[f].confianca ?? '-'}) / "${o.doc.truth[f]}"`);
    }
  }
  return {
    [`exact over fields, ${part} (n=${outs.length})`]: pct(exactAll(outs)),
    [`worst field, ${part}`]: pct(worst),
    [`median s per image, ${part}`]: median(images.map((o) => o.seconds)).toFixed(2),
    [`median s per image-only PDF, ${part}`]: median(pdfImage.map((o) => o.seconds)).toFixed(2),
  };
}

async function main(): Promise<void> {
  const { loadavg, availableParallelism } = await import('node:os');
  console.log(`# CNH OCR benchmark, widened set: parts ${parts.join(', ')}, ${n} documents each; recogniser pool ${poolSize}; documents read one at a time${budgetS !== undefined ? `; decode budget ${budgetS} s` : ''}`);
  console.log(`Model: ${model.id} (${model.langPath}), page read at ${model.pageSqueeze} x width`);
  const reader = await createCnhReader({ poolSize, maxQueue: 4, model: model.id, ...(budgetS !== undefined ? { budget: { timeMs: 1000 * budgetS } } : {}) });
  // One warm-up read so the first measured document does not pay for lazy loading (mupdf, JIT).
  await reader.read((await generateWidened('tuning', 20)).bytes);
  const summary: Array<{ metric: string; value: string }> = [];
  for (const part of parts) {
    const outs: Outcome[] = [];
    for (const i of only ?? Array.from({ length: n }, (_, k) => k)) {
      const doc = await generateWidened(part, i);
      const t = performance.now();
      const c = process.cpuUsage();
      const cpu = (): number => { const u = process.cpuUsage(c); return (u.user + u.system) / 1e6; };
      try {
        const res = await reader.read(doc.bytes);
        outs.push({ doc, res, seconds: (performance.now() - t) / 1000, cpu: cpu() });
      } catch (err) {
        outs.push({ doc, res: null, seconds: (performance.now() - t) / 1000, cpu: cpu(), error: String(err) });
      }
    }
    for (const [metric, value] of Object.entries(report(part, outs))) summary.push({ metric, value });
  }
  await reader.close();
  console.log(`\nMachine: ${availableParallelism()} cores, load average (1 min) at the end ${loadavg()[0].toFixed(1)}: wall times include waiting for cores used by other processes.`);
  const outDir = path.join(path.dirname(new URL(import.meta.url).pathname), 'out');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'ocr.summary.json'), JSON.stringify(summary, null, 2));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
