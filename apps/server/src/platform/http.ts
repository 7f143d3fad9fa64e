/** Envelope schemas for route declarations (STYLE §5), and the small helpers every route file uses. */
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { fail } from './errors.js';

export const failEnvelope = z.object({
  result: z.literal('fail'),
  code: z.number(),
  errno: z.number(),
  error: z.string(),
  msg: z.string(),
  errData: z.record(z.string(), z.unknown()).optional(),
});

export function okEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ result: z.literal('ok'), code: z.literal(0), data });
}

/** Response map: 200 with `data`, and the failure envelope for every 4xx/5xx. */
export function responses<T extends z.ZodType>(data: T) {
  return { 200: okEnvelope(data), '4xx': failEnvelope, '5xx': failEnvelope } as const;
}

export function ok<T>(data: T) {
  return { result: 'ok' as const, code: 0 as const, data };
}

/**
 * Who may call a route; checked at start-up for every /api route:
 * `public`, `session` (any signed-in account, own data only) or a `permissionId.action`.
 */
export type Access = 'public' | 'session' | `${string}.${string}`;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/**
 * The authenticated state of a route whose access is not public. The guard (auth/guard.ts)
 * fills `req.auth` and declares its type on FastifyRequest; platform names no area, so the
 * type is read from that declaration.
 */
export function authOf(req: FastifyRequest): NonNullable<FastifyRequest['auth']> {
  if (!req.auth) throw fail('UNAUTHORIZED');
  return req.auth;
}
