/**
 * Security headers on every answer (A-12, A-41, AS-16): strict CSP without unsafe-inline
 * (antd's runtime styles carry the per-response nonce), no framing, no sniffing, no referrer,
 * HSTS when served over https.
 */
import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';

declare module 'fastify' {
  interface FastifyReply {
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

export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headerOrigins = [origin(config.headerScriptGlobal), origin(config.headerScriptChina)].filter(Boolean).join(' ');
  const https = config.publicUrl.startsWith('https:');
  const directives = (styleSrc: string) =>
    [
      "default-src 'self'",
      `script-src 'self'${headerOrigins ? ' ' + headerOrigins : ''}`,
      `style-src ${styleSrc}`,
      // Avatars and realm logos may be hosted elsewhere; images cannot run script.
      "img-src 'self' data: blob: https:",
      "font-src 'self' data:",
      `connect-src 'self'${headerOrigins ? ' ' + headerOrigins : ''}`,
      "frame-ancestors 'none'",
      "form-action 'self'",
      "base-uri 'self'",
      "object-src 'none'",
    ].join('; ');
  // Built once: most answers are JSON and never use a nonce.
  const withoutNonce = directives("'self'");
  const [beforeNonce, afterNonce] = directives("'self' 'nonce-\u0000'").split('\u0000') as [string, string];
  const nonces = new WeakMap<object, string>();
  // The nonce is made when a page asks for it (index.html, spa.ts), not for every answer.
  app.decorateReply('cspNonce', {
    getter(this: object) {
      let n = nonces.get(this);
      if (!n) nonces.set(this, (n = crypto.randomBytes(16).toString('base64')));
      return n;
    },
  });
  app.addHook('onSend', async (req, reply, payload) => {
    // Swagger UI sets its own CSP for its assets; everything else gets ours.
    if (!reply.getHeader('content-security-policy')) {
      const n = nonces.get(reply);
      reply.header('content-security-policy', n ? beforeNonce + n + afterNonce : withoutNonce);
    }
    reply.header('x-frame-options', 'DENY');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('cross-origin-opener-policy', 'same-origin');
    reply.header('x-request-id', req.id);
    if (https) reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
    if (req.url.startsWith('/api/') && !reply.getHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}
