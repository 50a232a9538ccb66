import { useEffect, useState } from 'react';
import { api } from '../api.js';
import { isExpired, type PersonDocument } from '../document-record.js';
import { useI18n } from '../i18n/index.js';

/**
 * The document kept with a person at enrollment (GET /api/v1/persons/{ext_id}/document), one line
 * under a verify / identify verdict: name, CPF, CNH number and validity (expired in red), so the
 * clerk can hold it against the document the customer shows. Nothing when the person has none or
 * the call fails (the verdict stands on its own).
 */
export function PersonDocumentLine({ extId }: { extId: string }) {
  const { t } = useI18n();
  const [doc, setDoc] = useState<PersonDocument | null>(null);
  useEffect(() => {
    let alive = true;
    setDoc(null);
    api.getDocument(extId).then((d) => alive && setDoc(d), () => undefined);
    return () => {
      alive = false;
    };
  }, [extId]);
  if (!doc) return null;
  const f = doc.fields;
  return (
    <p className="person-document" data-testid="person-document">
      {t('doc.onFile')}: <b>{f.nome_completo ?? '—'}</b>
      {f.cpf ? ` · CPF ${f.cpf}` : ''}
      {f.numero_cnh ? ` · CNH ${f.numero_cnh}` : ''}
      {f.data_validade ? ` · ${t('enroll.docValid')} ${f.data_validade}` : ''}
      {isExpired(f.data_validade) && <b className="bad-text"> · {t('enroll.docExpired')}</b>}
    </p>
  );
}
