/**
 * What to tell the person after a check: one sentence per 400 error_code and per rejection reason,
 * saying what to change (users of the anchors complain of rejections without a reason).
 */
import type { Locale } from './ui.js';

const ADVICE: Record<Locale, Record<string, string>> = {
  'pt-BR': {
    FACE_NOT_FOUND: 'Rosto não encontrado: olhe para a câmera, com o rosto dentro do oval.',
    FACE_CROPPED: 'Rosto cortado: afaste-se um pouco e centralize o rosto.',
    FACE_IS_OCCLUDED: 'Rosto coberto: retire máscara, óculos escuros ou a mão da frente do rosto.',
    TOO_MANY_FACES: 'Mais de um rosto: fique sozinho diante da câmera.',
    FACE_ANGLE_TOO_LARGE: 'Olhe de frente para a câmera, sem virar a cabeça.',
    FACE_TOO_SMALL: 'Rosto pequeno demais: aproxime-se da câmera.',
    FACE_CLOSE_TO_BORDER: 'Centralize o rosto no oval.',
    IMAGE_TOO_SMALL: 'Resolução da câmera muito baixa',
    UNKNOWN: 'A captura não pôde ser lida: tente de novo.',
    UNTRUSTED_CONTENT_LOW_CONFIDENCE: 'A luz da tela não chegou ao rosto: saia do sol direto, aproxime-se da tela e aumente o brilho.',
    UNTRUSTED_CONTENT: 'A imagem não parece vir de uma câmera ao vivo: use a câmera do aparelho, sem filtros ou câmeras virtuais.',
    UNTRUSTED_DEVICE: 'Câmera não confiável (virtual ou emulada): use a câmera física do aparelho.',
    UNTRUSTED_ENVIRONMENT: 'Navegador em modo automatizado ou alterado: use um navegador comum, sem extensões de automação.',
    SDK_INTEGRITY_VIOLATION: 'A biblioteca de captura foi alterada: recarregue a página da estação.',
    UNTRUSTED_CORRUPTED_PAYLOAD: 'A captura foi alterada no caminho: verifique a rede e tente de novo.',
    SUSPICIOUS_ACTIVITY: 'Sessão expirada ou repetida: comece uma nova captura.',
  },
  en: {
    FACE_NOT_FOUND: 'No face found: look at the camera with your face inside the oval.',
    FACE_CROPPED: 'Face cut off: step back a little and centre your face.',
    FACE_IS_OCCLUDED: 'Face covered: remove mask, sunglasses or hand.',
    TOO_MANY_FACES: 'More than one face: be alone in front of the camera.',
    FACE_ANGLE_TOO_LARGE: 'Look straight at the camera without turning your head.',
    FACE_TOO_SMALL: 'Face too small: move closer to the camera.',
    FACE_CLOSE_TO_BORDER: 'Centre your face in the oval.',
    IMAGE_TOO_SMALL: 'Resolução da câmera muito baixa',
    UNKNOWN: 'The capture could not be read: try again.',
    UNTRUSTED_CONTENT_LOW_CONFIDENCE: 'The screen light did not reach your face: move out of direct sunlight, closer to the screen, and raise its brightness.',
    UNTRUSTED_CONTENT: 'The picture does not look like a live camera: use the device camera, without filters or virtual cameras.',
    UNTRUSTED_DEVICE: 'Untrusted (virtual or emulated) camera: use the physical camera.',
    UNTRUSTED_ENVIRONMENT: 'Automated or modified browser: use an ordinary browser without automation extensions.',
    SDK_INTEGRITY_VIOLATION: 'The capture library was modified: reload the station page.',
    UNTRUSTED_CORRUPTED_PAYLOAD: 'The capture was altered on the way: check the network and try again.',
    SUSPICIOUS_ACTIVITY: 'Session expired or repeated: start a new capture.',
  },
};

/** Advice for a 400 error_code or the rejection reasons of a 200 answer (empty when there is nothing to change). */
export function livenessAdvice(codes: string | string[], locale: Locale = 'pt-BR'): string[] {
  const list = Array.isArray(codes) ? codes : [codes];
  return list.map((c) => ADVICE[locale][c] ?? ADVICE['pt-BR'][c]).filter((x): x is string => !!x);
}
