/** Envelope schemas for route declarations (STYLE §5), and the small helpers every route file uses. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { fail } from './errors.js';
import { markShared } from './compression.js';

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
 * A 200 body serialized as the route's response schema would (zod encode, then JSON), for an
 * answer worth keeping serialized; `sendSerialized` sends it without serializing it again.
 * Bytes, not a string: a string body is encoded to UTF-8 (and joined to the head) on every send.
 */
export function serializeWith<T extends z.ZodType>(schema: T, data: z.output<T>): Buffer {
  return Buffer.from(JSON.stringify(schema.encode(data)));
}

/** `memo.get(key)`, made by `make` when missing (a guard cache entry's memo: auth/auth-cache.ts). */
export function memoized<T>(memo: Map<string, unknown>, key: string, make: () => T): T {
  let value = memo.get(key) as T | undefined;
  if (value === undefined) memo.set(key, (value = make()));
  return value;
}

/**
 * Sends a body made by `serializeWith` as it is (Fastify runs no serializer over bytes), through
 * every onSend hook as any other answer. Shared bytes: an onSend hook must never write into them.
 */
export function sendSerialized(reply: FastifyReply, body: Buffer): FastifyReply {
  // compressed once per coding, not per request (compression.ts)
  return reply.header('content-type', 'application/json; charset=utf-8').send(markShared(body));
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
