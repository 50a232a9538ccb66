import type { CaptureErrorCode } from '../../capture/index.js';
import { useI18n, type MessageKey } from '../i18n/index.js';

/**
 * Why the camera cannot be used, in plain words, and what fixes it: a refused permission, a missing
 * camera, a camera held by another program and a camera below 640x480 each get their own text.
 */
export function CameraProblem({ code, testId }: { code: CaptureErrorCode; testId?: string }) {
  const { t } = useI18n();
  return (
    <div className="notice notice-warn camera-problem" role="alert" data-testid={testId} data-code={code}>
      <strong className="notice-title">{t(`camera.${code}.title` as MessageKey)}</strong>
      <p>{t(`camera.${code}.fix` as MessageKey)}</p>
    </div>
  );
}
