import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCnhReader, type CnhReader, type CnhReadResult } from '../../src/ocr/index.js';
import { OcrError } from '../../src/ocr/engine.js';
import { generateCnh, type GeneratedCnh, type GenerateOptions } from '../fixtures/cnh/index.js';

let reader: CnhReader;
beforeAll(async () => {
  reader = await createCnhReader({ poolSize: 1, maxQueue: 8 });
});
afterAll(async () => {
  await reader?.close();
});

async function readGenerated(seed: number, opts: GenerateOptions): Promise<{ doc: GeneratedCnh; res: CnhReadResult }> {
  const doc = await generateCnh(seed, opts);
  return { doc, res: await reader.read(doc.bytes) };
}

function expectAllFields(doc: GeneratedCnh, res: CnhReadResult): void {
  const got = Object.fromEntries(Object.entries(res.campos).map(([k, v]) => [k, v.valor]));
  expect(got).toEqual(doc.truth);
  for (const [k, v] of Object.entries(res.campos)) {
    if (v.valor === '') expect(v.confianca, k).toBe(0);
    else expect(v.confianca, k).toBeGreaterThan(0);
    expect(v.confianca).toBeLessThanOrEqual(1);
  }
}

describe('CNH reader', () => {
  it('reads the 2022 model (front and back) with every field and flag', async () => {
    const { doc, res } = await readGenerated(101, { model: '2022' });
    expect(res.documento_tipo).toBe('CNH');
    expect(res.modelo).toBe('CNH_2022');
    expect(res.tipo_arquivo).toBe('image/png');
    expectAllFields(doc, res);
    expect(res.campos.local_nascimento.valor).toMatch(/^[A-ZÀ-Ý ]+, [A-Z]{2}$/);
    expect(res.campos.cpf.valido).toBe(true);
    for (const k of ['data_nascimento', 'data_validade', 'data_emissao', 'data_primeira_habilitacao'] as const) {
      expect(res.campos[k].valida).toBe(true);
    }
    expect(res.campos.nome_completo.valido).toBeUndefined();
    expect(res.texto_completo_ocr).toContain(doc.truth.cpf);
    expect(['excelente', 'boa']).toContain(res.qualidade_imagem);
  });

  it('reads the older model: no birthplace, place of issue is not local_nascimento', async () => {
    const { doc, res } = await readGenerated(102, { model: 'old' });
    expect(res.modelo).toBe('CNH_ANTERIOR');
    expectAllFields(doc, res);
    expect(res.campos.local_nascimento).toEqual({ valor: '', confianca: 0 });
  });

  it('takes the identity document state as uf when only the older front is given', async () => {
    const { doc, res } = await readGenerated(103, { model: 'old', frontOnly: true });
    expectAllFields(doc, res);
    expect(res.campos.uf.valor).toBe(doc.person.rgUf);
    expect(res.campos.data_emissao).toEqual({ valor: '', confianca: 0, valida: false });
  });

  it('reads a CNH-e PDF from its text layer', async () => {
    const { doc, res } = await readGenerated(104, { model: '2022', format: 'pdf-text' });
    expect(res.tipo_arquivo).toBe('application/pdf');
    expect(res.origem_texto).toBe('pdf_texto');
    expectAllFields(doc, res);
  });

  it('reads a CNH-e PDF with front and back on two pages', async () => {
    const { doc, res } = await readGenerated(110, { model: 'old', format: 'pdf-text', pdfTwoPages: true });
    expect(res.origem_texto).toBe('pdf_texto');
    expectAllFields(doc, res);
  });

  it('reads an image-only PDF by rendering and recognising it', async () => {
    const { doc, res } = await readGenerated(105, { model: 'old', format: 'pdf-image' });
    expect(res.origem_texto).toBe('ocr');
    expectAllFields(doc, res);
  });

  it('straightens a rotated photo of the card', async () => {
    const { doc, res } = await readGenerated(106, {
      model: '2022', frontOnly: true, degraded: { rotateDeg: 8, photo: true, jpegQuality: 85, cardWidthPx: 1280 },
    });
    expect(res.tipo_arquivo).toBe('image/jpeg');
    expectAllFields(doc, res);
  });

  it('reads a photo turned a quarter', async () => {
    const { doc, res } = await readGenerated(107, {
      model: '2022', frontOnly: true, degraded: { rotateDeg: 90, photo: true, jpegQuality: 85, cardWidthPx: 1280 },
    });
    expectAllFields(doc, res);
  });

  for (const [seed, model] of [[111, '2022'], [112, 'old']] as const) {
    it(`rectifies a photo of the ${model} model taken at an angle (perspective)`, async () => {
      const { doc, res } = await readGenerated(seed, {
        model, perspective: 0.06, degraded: { rotateDeg: 3, photo: true, jpegQuality: 85, cardWidthPx: 2600 },
      });
      for (const k of ['nome_completo', 'cpf', 'data_nascimento', 'numero_cnh'] as const) expect(res.campos[k].valor, k).toBe(doc.truth[k]);
      expectAllFields(doc, res);
    });
  }

  it('returns a CPF with wrong check digits with valido false', async () => {
    const { doc, res } = await readGenerated(108, { model: '2022', badCpf: true });
    expect(doc.cpfValid).toBe(false);
    expect(res.campos.cpf.valor).toBe(doc.truth.cpf);
    expect(res.campos.cpf.valido).toBe(false);
    expect(res.campos.cpf.confianca).toBeLessThan(0.8);
  });

  it('refuses bytes that are not JPEG, PNG or PDF', async () => {
    await expect(reader.read(Buffer.from('GIF89a\x01\x00\x01\x00'))).rejects.toMatchObject({
      kind: 'UNSUPPORTED_TYPE', message: 'Tipo de arquivo não suportado. Use PNG, JPG ou PDF',
    });
  });

  it('answers INVALID_DOCUMENT (the input, not the station, is at fault) for a broken image with a valid signature', async () => {
    const broken = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
    await expect(reader.read(broken)).rejects.toMatchObject({ kind: 'INVALID_DOCUMENT' });
  });
});

describe('CNH reader pool', () => {
  it('answers UNAVAILABLE beyond the queue bound and after close', async () => {
    const small = await createCnhReader({ poolSize: 1, maxQueue: 0 });
    const doc = await generateCnh(109, { model: 'old', frontOnly: true });
    const first = small.read(doc.bytes);
    const second = small.read(doc.bytes);
    await expect(second).rejects.toBeInstanceOf(OcrError);
    await expect(second).rejects.toMatchObject({ kind: 'UNAVAILABLE', message: 'OCR API unavailable' });
    await first;
    await small.close();
    await expect(small.read(doc.bytes)).rejects.toMatchObject({ kind: 'UNAVAILABLE' });
  });
});
