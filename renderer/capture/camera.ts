/** Camera helpers of the capture library: open the camera, grab frames, measure light. */

/**
 * Why the camera cannot be used: NO_CAMERA (no video device, or no MediaStream API), PERMISSION_DENIED
 * (the browser or the system refused access), CAMERA_BUSY (another program holds the device),
 * LOW_RESOLUTION (below 640x480).
 */
export type CaptureErrorCode = 'NO_CAMERA' | 'LOW_RESOLUTION' | 'PERMISSION_DENIED' | 'CAMERA_BUSY';

/** A capture failure with a stable code. */
export class CaptureError extends Error {
  constructor(
    readonly code: CaptureErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CaptureError';
  }
}

/** Minimum camera resolution of the spec (capture library limits): 640x480. */
export const MIN_WIDTH_PX = 640;
export const MIN_HEIGHT_PX = 480;

/**
 * Opens the user-facing camera at (at least) 640x480 and plays it in `video`.
 * @throws CaptureError NO_CAMERA (no device / no MediaStream API), PERMISSION_DENIED, CAMERA_BUSY,
 *   LOW_RESOLUTION (the camera gives less than 640x480: the spec's "Resolução da câmera muito baixa").
 *   When getUserMedia fails, the device list decides NO_CAMERA first (no videoinput at all), so a
 *   missing camera is never reported as a refusal or the other way round.
 */
export async function startCamera(video: HTMLVideoElement, ideal = { width: 1280, height: 720 }): Promise<MediaStream> {
  if (!navigator.mediaDevices?.getUserMedia) throw new CaptureError('NO_CAMERA', 'MediaStream API unavailable');
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({
      audio: false,
      video: { facingMode: 'user', width: { min: MIN_WIDTH_PX, ideal: ideal.width }, height: { min: MIN_HEIGHT_PX, ideal: ideal.height } },
    });
  } catch (e) {
    const name = (e as DOMException).name;
    if (name === 'NotFoundError' || (await videoInputCount()) === 0) throw new CaptureError('NO_CAMERA', 'No camera found');
    if (name === 'NotAllowedError' || name === 'SecurityError') throw new CaptureError('PERMISSION_DENIED', 'Camera permission denied');
    if (name === 'NotReadableError' || name === 'AbortError') throw new CaptureError('CAMERA_BUSY', 'The camera is in use or failed to start');
    if (name === 'OverconstrainedError') throw new CaptureError('LOW_RESOLUTION', 'Resolução da câmera muito baixa');
    throw new CaptureError('NO_CAMERA', (e as Error).message);
  }
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play();
  await waitForSize(video);
  if (video.videoWidth < MIN_WIDTH_PX || video.videoHeight < MIN_HEIGHT_PX) {
    stopCamera(stream);
    throw new CaptureError('LOW_RESOLUTION', 'Resolução da câmera muito baixa');
  }
  return stream;
}

/** Number of video input devices the browser lists (-1 when it cannot tell). */
async function videoInputCount(): Promise<number> {
  try {
    return (await navigator.mediaDevices.enumerateDevices()).filter((d) => d.kind === 'videoinput').length;
  } catch {
    return -1;
  }
}

async function waitForSize(video: HTMLVideoElement): Promise<void> {
  for (let i = 0; i < 50 && video.videoWidth === 0; i++) await new Promise((r) => setTimeout(r, 50));
}

/** Stops every track of a stream. */
export function stopCamera(stream: MediaStream | null | undefined): void {
  stream?.getTracks().forEach((t) => t.stop());
}

/** One still image. */
export interface Frame {
  /** Base64 without the data: prefix (ready for the API's imageData). */
  base64: string;
  dataUrl: string;
  widthPx: number;
  heightPx: number;
}

/** Grabs the current video frame as JPEG (quality 0.92). */
export function grabFrame(video: HTMLVideoElement, quality = 0.92): Frame {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  const dataUrl = canvas.toDataURL('image/jpeg', quality);
  return { base64: dataUrl.slice(dataUrl.indexOf(',') + 1), dataUrl, widthPx: canvas.width, heightPx: canvas.height };
}

/** Grabs the current frame as a Blob (for multipart uploads such as the CNH). */
export function grabBlob(video: HTMLVideoElement, quality = 0.95): Promise<Blob> {
  const canvas = document.createElement('canvas');
  canvas.width = video.videoWidth;
  canvas.height = video.videoHeight;
  canvas.getContext('2d')!.drawImage(video, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('toBlob failed'))), 'image/jpeg', quality));
}

let lumaCanvas: HTMLCanvasElement | null = null;
/**
 * Mean luma (0..255, Rec. 601 weights) of a centre crop of the source, measured on a 64x48
 * thumbnail; cheap enough for every frame.
 */
export function meanLuma(source: CanvasImageSource, widthPx: number, heightPx: number): number {
  lumaCanvas ??= document.createElement('canvas');
  lumaCanvas.width = 64;
  lumaCanvas.height = 48;
  const ctx = lumaCanvas.getContext('2d', { willReadFrequently: true })!;
  ctx.drawImage(source, widthPx * 0.25, heightPx * 0.2, widthPx * 0.5, heightPx * 0.6, 0, 0, 64, 48);
  const { data } = ctx.getImageData(0, 0, 64, 48);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  return sum / (data.length / 4);
}

/** Reads a File/Blob as base64 (no data: prefix) plus a data URL for previews. */
export function fileToBase64(file: Blob): Promise<{ base64: string; dataUrl: string }> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onerror = () => reject(reader.error);
    reader.onload = () => {
      const dataUrl = String(reader.result);
      resolve({ base64: dataUrl.slice(dataUrl.indexOf(',') + 1), dataUrl });
    };
    reader.readAsDataURL(file);
  });
}
