/** The capture's own view: the camera in an oval, guidance text, and the colour layer of the challenge. */

export type Locale = 'pt-BR' | 'en';

export type FeedbackCode = 'position' | 'too-dark' | 'too-bright' | 'hold-still' | 'sending';

export interface LivenessFeedback {
  code: FeedbackCode;
  message: string;
}

const TEXT: Record<Locale, Record<string, string>> = {
  'pt-BR': {
    position: 'Posicione o rosto dentro do oval, a um palmo e meio da tela',
    'too-dark': 'Ambiente muito escuro: acenda uma luz de frente para o rosto',
    'too-bright': 'Luz forte demais: saia do sol direto ou de frente para uma janela',
    'hold-still': 'Fique parado olhando para a tela: ela vai mudar de cor',
    sending: 'Enviando a captura',
    insecure: 'A captura exige HTTPS (ou localhost)',
    'no-mediastream': 'Este navegador não oferece acesso à câmera (MediaStream)',
    'no-wasm': 'Este navegador não suporta WebAssembly',
    'no-webgl': 'Este navegador não suporta WebGL',
    permission: 'Permita o acesso à câmera para continuar',
    'no-camera': 'Nenhuma câmera encontrada',
    'low-resolution': 'Resolução da câmera muito baixa',
    challenge: 'Não foi possível obter o desafio da estação',
  },
  en: {
    position: 'Place your face inside the oval, about 30 cm from the screen',
    'too-dark': 'Too dark: turn on a light in front of your face',
    'too-bright': 'Too bright: move out of direct sunlight or away from a window behind you',
    'hold-still': 'Hold still and look at the screen: it will change colour',
    sending: 'Sending the capture',
    insecure: 'Capture requires HTTPS (or localhost)',
    'no-mediastream': 'This browser gives no camera access (MediaStream)',
    'no-wasm': 'This browser does not support WebAssembly',
    'no-webgl': 'This browser does not support WebGL',
    permission: 'Allow camera access to continue',
    'no-camera': 'No camera found',
    // The spec fixes this client error text.
    'low-resolution': 'Resolução da câmera muito baixa',
    challenge: 'Could not get a challenge from the station',
  },
};

export function message(key: string, locale: Locale): string {
  return TEXT[locale]?.[key] ?? TEXT['pt-BR'][key] ?? key;
}

export class LivenessUi {
  readonly video: HTMLVideoElement;
  private readonly root: HTMLDivElement;
  private readonly text: HTMLDivElement;

  constructor(
    container: HTMLElement | undefined,
    private readonly locale: Locale,
    private readonly onFeedback?: (f: LivenessFeedback) => void,
  ) {
    this.root = document.createElement('div');
    this.root.setAttribute('data-biostation-liveness', '');
    Object.assign(this.root.style, container
      ? { position: 'relative', width: '100%', height: '100%', minHeight: '420px' }
      : { position: 'fixed', inset: '0', zIndex: '2147483647' });
    Object.assign(this.root.style, { background: '#808080', display: 'flex', flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: '16px', font: '18px system-ui, sans-serif', color: '#111' });
    this.video = document.createElement('video');
    Object.assign(this.video.style, { width: 'min(60vw, 360px)', aspectRatio: '3 / 4', objectFit: 'cover', borderRadius: '50% / 50%', transform: 'scaleX(-1)', background: '#000' });
    this.text = document.createElement('div');
    Object.assign(this.text.style, { background: 'rgba(255,255,255,0.85)', padding: '8px 16px', borderRadius: '8px', maxWidth: '90%', textAlign: 'center' });
    this.text.setAttribute('role', 'status');
    this.root.append(this.video, this.text);
    (container ?? document.body).append(this.root);
  }

  feedback(code: FeedbackCode): void {
    const f = { code, message: message(code, this.locale) };
    this.text.textContent = f.message;
    this.onFeedback?.(f);
  }

  /** Fills the view with a challenge colour and resolves once it has been painted. */
  showColour(rgb: [number, number, number]): Promise<void> {
    this.root.style.background = `rgb(${rgb[0]}, ${rgb[1]}, ${rgb[2]})`;
    return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
  }

  clearColour(): void {
    this.root.style.background = '#808080';
  }

  close(): void {
    this.video.srcObject = null;
    this.root.remove();
  }
}
