import { CnhReader } from '../components/CnhReader.js';
import { Screen } from '../components/ui.js';
import { useI18n } from '../i18n/index.js';

/** Read a CNH on its own (no enrollment). */
export function Document({ onBack }: { onBack: () => void }) {
  const { t } = useI18n();
  return (
    <Screen title={t('doc.title')} onBack={onBack}>
      <CnhReader />
    </Screen>
  );
}
