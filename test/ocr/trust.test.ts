/**
 * Issue #17 "never answer confidently with the wrong thing": boilerplate is never a value, each check
 * lowers confidence when violated, the quality grade follows what was read, and documents that are
 * not a CNH get the documented answer (documento_tipo DESCONHECIDO, motivo DOCUMENTO_NAO_RECONHECIDO).
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CNH_FIELD_NAMES, type CnhFieldName } from '../../src/ocr/engine.js';
import { isBoilerplate } from '../../src/ocr/boilerplate.js';
import { extractFields, LOW_CONFIDENCE, scoreFields, type Draft } from '../../src/ocr/fields.js';
import { createCnhReader, type CnhReader } from '../../src/ocr/index.js';
import { readingGrade } from '../../src/ocr/quality.js';
import { groupPhrases, type OcrWord } from '../../src/ocr/words.js';
import { generateCnh, groundTruth } from '../fixtures/cnh/index.js';
import { fakePerson } from '../fixtures/cnh/people.js';
import { repeatedOpPdf } from '../fixtures/cnh/hostile.js';

/** Every field of a fake person's 2022 card, as read with confidence `conf`. */
function drafts(seed: number, conf = 0.95): Record<CnhFieldName, Draft> {
  const truth = groundTruth(fakePerson(seed), '2022', false);
  return Object.fromEntries(CNH_FIELD_NAMES.map((k) => [k, { valor: truth[k], conf }])) as Record<CnhFieldName, Draft>;
}

describe('boilerplate is never a value', () => {
  it('knows the headers, labels and notices, misread or not, and leaves names alone', () => {
    for (const t of ['REPÚBLICA FEDERATIVA DO BRASIL', 'CARTEIRA NACIONAL DE HABILITAÇÃO', 'CARTEIRA NACIONAI DE HABILITACÃO', 'MINISTÉRIO DOS TRANSPORTES',
      'DEPARTAMENTO NACIONAL DE TRÂNSITO', 'ASSINATURA DO PORTADOR', 'VÁLIDA EM TODO O TERRITÓRIO NACIONAL', 'NOME E SOBRENOME', 'FILIAÇÃO', 'OBSERVAÇÕES']) {
      expect(isBoilerplate(t), t).toBe(true);
    }
    for (const t of ['MARIA DO BRASIL SOUZA', 'JOÃO NASCIMENTO', 'ANA LOCAL DA SILVA', 'SÃO PAULO, SP', 'DETRAN', 'SSP', 'EAR']) expect(isBoilerplate(t), t).toBe(false);
  });

  it('drops a header read under FILIAÇÃO instead of returning it as the parents', () => {
    // A label (12 px type) with two header lines (18 px) right under it, where the parents belong.
    const w = (text: string, x0: number, y0: number, h: number, conf = 0.93): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
    const words = [
      ...'REPÚBLICA FEDERATIVA DO BRASIL'.split(' ').map((t, i) => w(t, 100 + i * 160, 124, 18)),
      ...'CARTEIRA NACIONAL DE HABILITAÇÃO'.split(' ').map((t, i) => w(t, 100 + i * 160, 150, 18)),
      w('FILIAÇÃO', 100, 100, 12),
    ];
    const { campos } = extractFields(groupPhrases(words), words.map((x) => x.text).join(' '));
    expect(campos.nome_pai.valor).toBe('');
    expect(campos.nome_mae.valor).toBe('');
    const scored = scoreFields({ ...drafts(1), nome_pai: { valor: 'REPÚBLICA FEDERATIVA DO BRASIL', conf: 0.86 }, nome_mae: { valor: 'CARTEIRA NACIONAL DE HABILITAÇÃO', conf: 0.86 } });
    expect(scored.nome_pai).toEqual({ valor: '', confianca: 0 });
    expect(scored.nome_mae).toEqual({ valor: '', confianca: 0 });
  });
});

describe('each check lowers confidence when violated', () => {
  const good = scoreFields(drafts(7));
  it('a consistent reading keeps every field at high confidence', () => {
    for (const k of CNH_FIELD_NAMES) if (good[k].valor) expect(good[k].confianca, k).toBeGreaterThanOrEqual(0.9);
  });

  const cases: Array<[string, CnhFieldName[], Partial<Record<CnhFieldName, string>>]> = [
    ['CPF check digits', ['cpf'], { cpf: '123.456.789-00' }],
    ['CNH number check digits', ['numero_cnh'], { numero_cnh: (() => { const n = fakePerson(7).numero_cnh; return n.slice(0, 10) + String((Number(n[10]) + 1) % 10); })() }],
    ['category outside the allowed set', ['categoria'], { categoria: 'F' }],
    ['UF outside the 27 codes', ['uf'], { uf: 'XX' }],
    ['birthplace without a valid UF', ['local_nascimento'], { local_nascimento: 'CAMPINAS, ZZ' }],
    ['identity number with letters', ['rg'], { rg: '12AB4567' }],
    ['a name of one word', ['nome_mae'], { nome_mae: 'MARIA' }],
    ['a name with a doubled vowel (the space after a particle missed)', ['nome_completo'], { nome_completo: 'SANDRA DAANDRADE DIAS' }],
    ['birth after the first licence', ['data_nascimento'], { data_nascimento: '01/01/2099' }],
    ['issue after expiry', ['data_emissao'], { data_emissao: '01/01/2099' }],
    ['expiry before issue', ['data_validade'], { data_validade: '01/01/1950' }],
    ['a date that is not a calendar date', ['data_primeira_habilitacao'], { data_primeira_habilitacao: '31/02/2010' }],
  ];
  for (const [name, fields, change] of cases) {
    it(name, () => {
      const d = drafts(7);
      for (const [k, v] of Object.entries(change)) d[k as CnhFieldName] = { valor: v as string, conf: 0.95 };
      const scored = scoreFields(d);
      for (const k of fields) {
        expect(scored[k].confianca, k).toBeLessThan(LOW_CONFIDENCE);
        expect(scored[k].confianca, k).toBeLessThan(good[k].confianca);
      }
    });
  }
});

describe('cross-checks between printed lines', () => {
  const w = (text: string, x0: number, y0: number, h: number, conf = 0.95): OcrWord => ({ text, conf, x0, y0, x1: x0 + text.length * h * 0.6, y1: y0 + h });
  const line = (text: string, x0: number, y0: number, h: number): OcrWord[] => {
    let x = x0;
    return text.split(' ').map((t) => { const word = w(t, x, y0, h); x = word.x1 + h * 0.4; return word; });
  };
  const read = (words: OcrWord[]) => extractFields(groupPhrases(words), words.map((x) => x.text).join(' ')).campos;

  it('the issuing state disagreeing with the place of issue lowers uf under 0.8; agreeing keeps it high', () => {
    const card = (local: string): OcrWord[] => [...line('DETRAN - CE', 100, 40, 18), w('LOCAL', 100, 100, 12), ...line(local, 100, 116, 18)];
    expect(read(card('RECIFE, PE')).uf).toMatchObject({ valor: 'CE' });
    expect(read(card('RECIFE, PE')).uf.confianca).toBeLessThan(LOW_CONFIDENCE);
    expect(read(card('FORTALEZA, CE')).uf.confianca).toBeGreaterThanOrEqual(0.9);
  });

  it('the identity\'s state as uf (older model) is under 0.8 when the issue side is in view, high on the front alone', () => {
    const front = [w('NOME', 100, 40, 12), ...line('LIVIA PEREIRA MARQUES', 100, 56, 18), ...line('DOC. IDENTIDADE / ÓRG. EMISSOR / UF', 100, 100, 12),
      ...line('881973916 SSP PR', 100, 116, 18), ...line('DATA NASCIMENTO', 400, 160, 12), ...line('21/06/1970', 400, 176, 18)];
    const alone = read(front);
    expect(alone.uf.valor).toBe('PR');
    expect(alone.uf.confianca).toBeGreaterThanOrEqual(0.9);
    const withBack = read([...front, ...line('ASSINATURA DO PORTADOR', 100, 900, 12)]);
    expect(withBack.uf.valor).toBe('PR');
    expect(withBack.uf.confianca).toBeLessThan(LOW_CONFIDENCE);
  });

  it('a single line under FILIAÇÃO (mother alone, or father with the mother unread) is under 0.8', () => {
    const one = read([w('FILIAÇÃO', 100, 100, 12), ...line('RODRIGO SOARES SANTANA', 100, 116, 18)]);
    expect(one.nome_pai.valor).toBe('');
    expect(one.nome_mae.valor).toBe('RODRIGO SOARES SANTANA');
    expect(one.nome_mae.confianca).toBeLessThan(LOW_CONFIDENCE);
    const two = read([w('FILIAÇÃO', 100, 100, 12), ...line('RODRIGO SOARES SANTANA', 100, 116, 18), ...line('VANESSA ANDRADE SILVA', 100, 138, 18)]);
    expect(two.nome_pai.valor).toBe('RODRIGO SOARES SANTANA');
    expect(two.nome_mae.valor).toBe('VANESSA ANDRADE SILVA');
    expect(two.nome_mae.confianca).toBeGreaterThanOrEqual(0.9);
    // The mother's line printed lower than usual (1.3 line heights under the father's) is still hers.
    const apart = read([w('FILIAÇÃO', 100, 100, 12), ...line('RODRIGO SOARES SANTANA', 100, 116, 18), ...line('VANESSA ANDRADE SILVA', 100, 157, 18)]);
    expect([apart.nome_pai.valor, apart.nome_mae.valor]).toEqual(['RODRIGO SOARES SANTANA', 'VANESSA ANDRADE SILVA']);
  });
});

describe('qualidade_imagem follows what was read', () => {
  it('six empty fields are not an excellent reading', () => {
    const d = drafts(3);
    for (const k of ['nome_completo', 'cpf', 'rg', 'numero_cnh', 'nome_mae', 'categoria'] as const) d[k] = { valor: '', conf: 0 };
    expect(readingGrade(scoreFields(d), LOW_CONFIDENCE)).toBe('ruim');
    expect(readingGrade(scoreFields(drafts(3)), LOW_CONFIDENCE)).toBe('excelente');
  });
});

describe('documents that are not a CNH', () => {
  let reader: CnhReader;
  beforeAll(async () => {
    // These tests are about the answer to a page that is not a CNH, not about the decode budget (budget.test.ts):
    // a page without labels is searched in every orientation and preparation, which on a loaded 2-core machine
    // ran past the product's 15 s wall budget (CI run of 2026-12-02 beside four benches), so they get a wide one (under the 60 s test timeout).
    reader = await createCnhReader({ poolSize: 1, budget: { timeMs: 50_000 } });
  });
  afterAll(async () => {
    await reader?.close();
  });

  const expectNotCnh = (r: Awaited<ReturnType<CnhReader['read']>>): void => {
    expect(r.documento_tipo).toBe('DESCONHECIDO');
    expect(r.motivo).toBe('DOCUMENTO_NAO_RECONHECIDO');
    expect(r.qualidade_imagem).toBe('ruim');
    for (const k of CNH_FIELD_NAMES) expect(r.campos[k].valor, k).toBe('');
  };

  it('a blank PDF page', async () => {
    expectNotCnh(await reader.read(repeatedOpPdf(1, '0 0 0 0 re f\n')));
  });

  it('a photo-like image (a face-like blob on a gradient)', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="1100"><defs><radialGradient id="g"><stop offset="0" stop-color="#e8b89a"/><stop offset="1" stop-color="#6b4a3a"/></radialGradient></defs>
      <rect width="900" height="1100" fill="#35506b"/><ellipse cx="450" cy="520" rx="260" ry="340" fill="url(#g)"/><ellipse cx="360" cy="450" rx="40" ry="22" fill="#222"/><ellipse cx="540" cy="450" rx="40" ry="22" fill="#222"/><rect x="380" y="700" width="140" height="26" rx="12" fill="#8a3a3a"/></svg>`;
    expectNotCnh(await reader.read(await sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer()));
  });

  it('another document with text (an invoice)', async () => {
    const lines = ['NOTA FISCAL DE SERVIÇOS ELETRÔNICA', 'PRESTADOR: OFICINA MECÂNICA SANTOS LTDA', 'TOMADOR: EMPRESA EXEMPLO', 'VALOR TOTAL R$ 1.250,00', 'DESCRIÇÃO: REVISÃO GERAL DO VEÍCULO'];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1400" height="900"><rect width="1400" height="900" fill="#ffffff"/>${lines.map((t, i) => `<text x="60" y="${120 + i * 90}" font-family="DejaVu Sans" font-size="40" fill="#111">${t}</text>`).join('')}</svg>`;
    expectNotCnh(await reader.read(await sharp(Buffer.from(svg)).png().toBuffer()));
  });

  it('a real (synthetic) CNH is still a CNH', async () => {
    const doc = await generateCnh(104, { model: '2022', format: 'pdf-text' });
    const r = await reader.read(doc.bytes);
    expect(r.documento_tipo).toBe('CNH');
    expect(r.motivo).toBeUndefined();
    expect(r.qualidade_imagem).toBe('excelente');
  });
});
