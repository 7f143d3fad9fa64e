/** Small HTTP helpers shared by the flow routes (no rules here). */
import { LIMITS, resolveLocale } from '@umbo/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Account } from '../../accounts/accounts.repo.js';
import { requestLocale } from '../../platform/i18n.js';
import { MASTER_REALM } from '../../perm/perm.service.js';
import type { IssuedSession } from '../sessions.service.js';
import type { RequestMeta } from './deps.js';

export function metaOf(req: FastifyRequest, lang?: string): RequestMeta {
  return { ip: req.ip, userAgent: req.headers['user-agent'] ?? '', locale: lang ? resolveLocale(lang) : requestLocale(req) };
}

export const realmOf = (body: { realm_id?: string | undefined }) => body.realm_id || MASTER_REALM;

/** The same answer and `userid` cookie as the password form (auth.routes.ts, SPEC §7). */
export function signedIn(reply: FastifyReply, secure: boolean, r: { account: Account; issued: IssuedSession }) {
  reply.setCookie('userid', r.account.id, { path: '/', sameSite: 'lax', secure, maxAge: LIMITS.tokenLifetimeMs / 1000 });
  return {
    token: r.issued.token,
    expiresAt: r.issued.session.expires_at,
    userId: r.account.id,
    realmId: r.account.realm_id,
    forcePassword: r.account.force_password === 1,
  };
}
