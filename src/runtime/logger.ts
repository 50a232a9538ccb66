import pino, { type Logger } from 'pino';

/**
 * The station's structured logger. Biometric data never reaches a log line: request bodies are
 * not logged, and the redaction list below strips the fields that could carry images, templates
 * or secrets should anyone log an object holding them.
 */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: ['*.imageData', '*.Images', '*.b64IsoTemplate', '*.secret', '*.token', 'req.headers.authorization'],
      censor: '[redacted]',
    },
  });
}

export type { Logger };
