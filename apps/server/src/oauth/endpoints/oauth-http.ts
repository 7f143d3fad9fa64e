/**
 * HTTP shared by the provider's back-channel endpoints (token, introspection, revocation,
 * userinfo, device authorization):
 *
 * - `oauthScope`: registers routes in a Fastify scope whose errors answer in RFC 6749 §5.2's
 *   JSON (`{error, error_description}`), never the console envelope: an OAuthError as itself, a
 *   body Fastify could not parse as invalid_request, a database outage as 503
 *   temporarily_unavailable (A-44), anything else as 500 server_error without detail;
 * - `NO_STORE` on every answer of these endpoints (RFC 6749 §5.1, AS-14);
 * - `readForm`: the form body as RFC 6749 §3.1/§3.2 wants it read — POST with
 *   application/x-www-form-urlencoded only, a parameter sent twice is invalid_request, a
 *   parameter without a value counts as absent, unknown parameters pass through (and are
 *   ignored by whoever does not know them).
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isDatabaseUnavailable } from '../../platform/db.js';
import { InvalidRequest, OAuthError } from '../errors.js';

export const NO_STORE: Readonly<Record<string, string>> = { 'cache-control': 'no-store', pragma: 'no-cache' };

/** Sends a JSON body (already serialised: what is signed or sealed goes out byte for byte). */
export function sendJson(reply: FastifyReply, status: number, body: unknown): FastifyReply {
  return reply
    .status(status)
    .headers(NO_STORE)
    .type('application/json; charset=utf-8')
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Keys of a token response, quoted as JSON.stringify would quote them. */
const QUOTED_KEYS: Readonly<Record<string, string>> = Object.fromEntries(
  ['access_token', 'token_type', 'expires_in', 'refresh_token', 'id_token', 'scope', 'issued_token_type'].map((k) => [k, `"${k}"`]),
);
/** Members whose values this server made (see tokenResponseJson). */
const OUR_TOKENS: ReadonlySet<string> = new Set(['access_token', 'id_token', 'refresh_token']);

/**
 * A token response (RFC 6749 §5.1) as JSON.stringify writes it, byte for byte, without running
 * JSON.stringify's escaping over the tokens: scanning a ~600-character JWT for characters to
 * escape was a measurable share of a client_credentials token (issue 12 bench). Only our own
 * tokens go between quotes as they are: JWS compact serializations and random strings, made of
 * base64url characters and dots, none of which JSON escapes (a refresh token answered again is
 * one we made: it was found by its hash). A value holding `"`, `\` or a non-ASCII character
 * (none of ours can) is escaped as always, so no value can end its string early.
 */
export function tokenResponseJson(r: object): string {
  let out = '';
  for (const k of Object.keys(r)) {
    const v = (r as Record<string, unknown>)[k];
    if (v === undefined) continue; // as JSON.stringify: an undefined member is left out
    const plain = typeof v === 'string' && OUR_TOKENS.has(k) && v.indexOf('"') < 0 && v.indexOf('\\') < 0 && Buffer.byteLength(v) === v.length;
    out += `${out ? ',' : '{'}${QUOTED_KEYS[k] ?? JSON.stringify(k)}:${plain ? `"${v}"` : JSON.stringify(v)}`;
  }
  return out ? `${out}}` : '{}';
}

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  if (err.headers) reply.headers(err.headers);
  return sendJson(reply, err.status, { error: err.error, error_description: err.description });
}

function oauthErrorHandler(err: FastifyError, req: FastifyRequest, reply: FastifyReply) {
  if (err instanceof OAuthError) return sendOAuthError(reply, err);
  if (isDatabaseUnavailable(err)) {
    req.log.error({ err }, 'database unavailable');
    return sendJson(reply.header('retry-after', '5'), 503, { error: 'temporarily_unavailable', error_description: 'try again later' });
  }
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return sendJson(reply, 400, { error: 'invalid_request', error_description: err.statusCode === 413 ? 'request too large' : 'malformed request' });
  }
  req.log.error({ err }, 'unhandled error');
  return sendJson(reply, 500, { error: 'server_error', error_description: 'internal error' });
}

/** Registers `routes` in a scope that answers errors the RFC way. */
export function oauthScope(app: FastifyInstance, routes: (scope: FastifyInstance) => void): void {
  void app.register(async (scope) => {
    scope.setErrorHandler(oauthErrorHandler);
    routes(scope);
  });
}

/** 405 with `Allow` for the methods an endpoint does not take (A-22: GET at the token endpoint). */
/** A POST-only endpoint answers other methods 405 with `Allow: POST` in the RFC shape (RFC 6749 §3.2, A-22). */
export function refuseAllButPost(scope: FastifyInstance, url: string): void {
  scope.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url,
    config: { access: 'public' },
    schema: { hide: true },
    handler: async (_req: FastifyRequest, reply: FastifyReply) =>
      sendJson(reply.header('allow', 'POST'), 405, { error: 'invalid_request', error_description: 'use POST' }),
  });
}

/** The form body, each parameter once (see the file comment). */
export function readForm(req: FastifyRequest): Record<string, string> {
  const type = String(req.headers['content-type'] ?? '').toLowerCase();
  if (!type.startsWith('application/x-www-form-urlencoded')) throw new InvalidRequest('the body must be application/x-www-form-urlencoded');
  const body = (req.body ?? {}) as Record<string, unknown>;
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(body)) {
    const v = body[name];
    if (Array.isArray(v)) {
      if (v.filter((x) => x !== '').length > 1) throw new InvalidRequest(`${name.slice(0, 40)} is repeated`);
      const one = v.find((x) => x !== '');
      if (typeof one === 'string') out[name] = one;
    } else if (typeof v === 'string' && v !== '') {
      out[name] = v;
    }
  }
  return out;
}

/** The realm id of the path, when it can be one (the realm's existence is decided later). */
export function realmParam(req: FastifyRequest): string {
  const realmId = (req.params as { realmId?: string }).realmId ?? '';
  return /^[A-Za-z0-9_-]{1,64}$/.test(realmId) ? realmId : '';
}
