/**
 * The process's one logger (pino): the HTTP server's request lines and every service's lines
 * are its children, so the redaction of platform/redact.ts covers them all (issue 8).
 */
import pino, { type DestinationStream, type Logger } from 'pino';
import { redactText, redactValue } from './redact.js';

export type { Logger };

export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      serializers: {
        // Fastify's request line without the query values that carry codes and tokens.
        req: (req: { method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
          method: req.method,
          url: req.url === undefined ? undefined : redactText(req.url),
          host: req.host,
          remoteAddress: req.ip,
          remotePort: req.socket?.remotePort,
        }),
        err: (err: Error) => {
          const out = pino.stdSerializers.err(err);
          return { ...out, message: redactText(out.message), stack: redactText(out.stack ?? '') };
        },
      },
      hooks: {
        // Every line: messages and merged objects, whatever a caller passes.
        logMethod(args, method) {
          method.apply(this, args.map((a) => (typeof a === 'string' ? redactText(a) : a instanceof Error ? a : redactValue(a))) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}
