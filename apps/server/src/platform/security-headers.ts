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
  app.decorateReply('cspNonce', '');
  app.addHook('onRequest', async (_req, reply) => {
    reply.cspNonce = crypto.randomBytes(16).toString('base64');
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const n = reply.cspNonce;
    // Swagger UI sets its own CSP for its assets; everything else gets ours.
    if (!reply.getHeader('content-security-policy')) {
      reply.header(
        'content-security-policy',
        [
          "default-src 'self'",
          `script-src 'self'${headerOrigins ? ' ' + headerOrigins : ''}`,
          `style-src 'self' 'nonce-${n}'`,
          // Avatars and realm logos may be hosted elsewhere; images cannot run script.
          "img-src 'self' data: blob: https:",
          "font-src 'self' data:",
          `connect-src 'self'${headerOrigins ? ' ' + headerOrigins : ''}`,
          "frame-ancestors 'none'",
          "form-action 'self'",
          "base-uri 'self'",
          "object-src 'none'",
        ].join('; '),
      );
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
