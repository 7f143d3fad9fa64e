/**
 * The browser SSO session of a realm's OpenID provider: an HttpOnly cookie holding a
 * session token (sessions table), Secure when served over https, SameSite=Lax (sent on the
 * top-level GET an application's redirect makes, not on cross-site POSTs or subrequests),
 * scoped to the realm's provider paths, so it reaches neither the console API nor another realm.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SSO_COOKIE_NAME } from '../defaults.js';

const pathOf = (realmId: string) => `/realms/${encodeURIComponent(realmId)}/`;

export function readSsoCookie(req: FastifyRequest): string | undefined {
  const v = req.cookies?.[SSO_COOKIE_NAME];
  return typeof v === 'string' && v ? v : undefined;
}

export function setSsoCookie(reply: FastifyReply, o: { realmId: string; token: string; expiresAt: number; now: number; secure: boolean }): void {
  reply.setCookie(SSO_COOKIE_NAME, o.token, {
    path: pathOf(o.realmId),
    httpOnly: true,
    secure: o.secure,
    sameSite: 'lax',
    maxAge: Math.max(0, Math.floor((o.expiresAt - o.now) / 1000)),
  });
}

export function clearSsoCookie(reply: FastifyReply, o: { realmId: string; secure: boolean }): void {
  reply.clearCookie(SSO_COOKIE_NAME, { path: pathOf(o.realmId), httpOnly: true, secure: o.secure, sameSite: 'lax' });
}
