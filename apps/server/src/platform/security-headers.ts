/**
 * Security headers on every answer (A-12, A-41, AS-16): CSP, no framing, no sniffing, no
 * referrer, HSTS when served over https.
 *
 * The CSP keeps scripts strict and lets styles be inline (SECURITY.md A-41, DESIGN.md §5):
 *   - script-src: 'self' (plus the cloud header script's origins) and, on a page, the
 *     response's nonce. Never 'unsafe-inline' or 'unsafe-eval'. The console has no inline script
 *     at all; the nonce is there for a server-made page that needs one.
 *   - style-src: 'self' 'unsafe-inline'. antd writes its styles into <style> tags at run time,
 *     and parts of it cannot carry a nonce: @rc-component/util measures scrollbars for every
 *     Table with an un-nonced <style> (react-component/util#613, still open). A nonce in
 *     style-src would also make browsers ignore 'unsafe-inline'. Inline styles cannot run code.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

declare module 'fastify' {
  interface FastifyReply {
    /** This response's script nonce; asking for it adds it to the response's CSP. */
    cspNonce: string;
  }
}

function origin(url: string): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** The policy; `nonce` only for answers that asked for one. */
export function contentSecurityPolicy(config: Pick<Config, 'headerScriptGlobal' | 'headerScriptChina'>, nonce?: string): string {
  const headerOrigins = [origin(config.headerScriptGlobal), origin(config.headerScriptChina)].filter(Boolean).join(' ');
  return [
    "default-src 'self'",
    `script-src 'self'${headerOrigins ? ' ' + headerOrigins : ''}${nonce ? ` 'nonce-${nonce}'` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    // Avatars and realm logos may be hosted elsewhere; images cannot run script.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${headerOrigins ? ' ' + headerOrigins : ''}`,
    "frame-ancestors 'none'",
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const https = config.publicUrl.startsWith('https:');
  // Built once: most answers are JSON and never use a nonce.
  const withoutNonce = contentSecurityPolicy(config);
  const nonces = new WeakMap<object, string>();
  // The nonce is made when a page asks for it (spa.ts), not for every answer.
  app.decorateReply('cspNonce', {
    getter(this: object) {
      let n = nonces.get(this);
      if (!n) nonces.set(this, (n = crypto.randomBytes(16).toString('base64')));
      return n;
    },
  });
  // A callback hook: no promise per answer (issue 11 bench).
  app.addHook('onSend', (req, reply, payload, done) => {
    // Swagger UI sets its own CSP for its assets; everything else gets ours.
    if (!reply.getHeader('content-security-policy')) {
      const n = nonces.get(reply);
      reply.header('content-security-policy', n ? contentSecurityPolicy(config, n) : withoutNonce);
    }
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('x-request-id', req.id);
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (req.url.startsWith('/api/') && !reply.getHeader('cache-control')) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
}
