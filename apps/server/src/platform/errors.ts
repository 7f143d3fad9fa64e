/**
 * One API error type carrying a catalogue code (STYLE §8), and the one handler that renders
 * SPEC §7's envelope. Internals never reach a client: 5xx bodies are generic.
 */
import { ErrorCodes, type ErrorDef, type ErrorName, type FailEnvelope } from '@umbo/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from './db.js';
import { requestLocale, t } from './i18n.js';

export class ApiError extends Error {
  constructor(
    public readonly def: ErrorDef,
    public readonly errData?: Record<string, unknown>,
    public readonly headers?: Record<string, string>,
  ) {
    super(def.key);
  }
}

export function fail(name: ErrorName, errData?: Record<string, unknown>): ApiError {
  return new ApiError(ErrorCodes[name], errData);
}

/** Guard clause: `assertThat(realm, 'NOT_FOUND')`. */
export function assertThat(condition: unknown, name: ErrorName, errData?: Record<string, unknown>): asserts condition {
  if (!condition) throw fail(name, errData);
}

export function envelope(req: FastifyRequest, def: ErrorDef, errData?: Record<string, unknown>): FailEnvelope {
  const locale = requestLocale(req);
  let msg = t(locale, `errors.${def.key}`);
  if (errData && typeof errData.field === 'string') msg += ` (${t(locale, 'errors.field', { field: errData.field })})`;
  // Reasons are phrase keys (`validation.username_same`) for programs; people read them in msg.
  if (errData && typeof errData.reason === 'string' && /^[a-z_]+\.[a-z_]+$/.test(errData.reason)) {
    const text = t(locale, errData.reason, errData);
    if (text !== errData.reason) msg += ` — ${text}`;
  }
  if (errData && errData.service && errData.resource && errData.perm) {
    msg = t(locale, 'errors.permission_missing', errData);
  }
  return { result: 'fail', code: def.code, errno: def.code, error: def.key, msg, ...(errData ? { errData } : {}) };
}

function send(req: FastifyRequest, reply: FastifyReply, def: ErrorDef, errData?: Record<string, unknown>) {
  return reply.status(def.status).send(envelope(req, def, errData));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    if (err instanceof ApiError) {
      if (err.headers) reply.headers(err.headers);
      return send(req, reply, err.def, err.errData);
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const first = err.validation[0];
      const parent = first?.instancePath.replace(/^\//, '').replace(/\//g, '.') ?? '';
      // zod reports an unknown key against its parent object: name the key itself.
      const unknownKey = first?.keyword === 'unrecognized_keys' ? (first.params as { keys?: string[] } | undefined)?.keys?.[0] : undefined;
      if (unknownKey)
        return send(req, reply, ErrorCodes.INVALID_PARAMETER, { field: parent ? `${parent}.${unknownKey}` : unknownKey, reason: 'unknown field' });
      const field = parent || String((first?.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ?? '');
      return send(req, reply, ErrorCodes.INVALID_PARAMETER, { field: field || 'body', reason: first?.message ?? '' });
    }
    if (err.validation) {
      return send(req, reply, ErrorCodes.INVALID_PARAMETER, { field: err.validationContext ?? 'body', reason: err.message });
    }
    if (isDatabaseUnavailable(err)) {
      req.log.error({ err }, 'database unavailable');
      return send(req, reply, ErrorCodes.DATABASE_ERROR);
    }
    if (err.statusCode === 413 || err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(req, reply, ErrorCodes.PAYLOAD_TOO_LARGE);
    if (err.statusCode === 429) return send(req, reply, ErrorCodes.RATE_LIMITED);
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, bad content type and the like: the caller's input, not our fault.
      return send(req, reply, ErrorCodes.INVALID_PARAMETER, { reason: err.code ?? 'bad_request' });
    }
    req.log.error({ err }, 'unhandled error');
    return send(req, reply, ErrorCodes.INTERNAL);
  });
}
