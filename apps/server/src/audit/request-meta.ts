/** What an audit event says about the request behind it: the address, the browser, the actor. */
import type { FastifyRequest } from 'fastify';
import type { AuditActor } from './audit.service.js';

/** req.ip honours TRUST_PROXY (platform/config.ts): the client's address, not a forged header. */
export function requestMeta(req: FastifyRequest): { ip: string; userAgent: string } {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: typeof ua === 'string' ? ua : '' };
}

/** The signed-in caller the guard authenticated (null on public routes). */
export function actorOf(req: FastifyRequest): AuditActor | null {
  const auth = (req as FastifyRequest & { auth?: { account: { id: string; username: string } } | null }).auth;
  return auth ? { id: auth.account.id, name: auth.account.username } : null;
}
