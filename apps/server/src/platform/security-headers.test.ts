/** The CSP of SECURITY.md A-41: scripts strict, inline styles allowed (antd), nonce only on pages that ask. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Config } from './config.js';
import { contentSecurityPolicy, registerSecurityHeaders } from './security-headers.js';

const noHeader = { headerScriptGlobal: '', headerScriptChina: '' };

function directive(csp: string, name: string): string {
  return (
    csp
      .split('; ')
      .find((d) => d.startsWith(`${name} `))
      ?.slice(name.length + 1) ?? ''
  );
}

describe('content security policy', () => {
  it('A-41 lets scripts come from the site only: no inline script, no eval', () => {
    const csp = contentSecurityPolicy(noHeader);
    expect(directive(csp, 'script-src')).toBe("'self'");
    expect(directive(csp, 'object-src')).toBe("'none'");
    expect(directive(csp, 'frame-ancestors')).toBe("'none'");
    expect(directive(csp, 'base-uri')).toBe("'self'");
    expect(csp).not.toContain('unsafe-eval');
  });

  it('A-41 allows inline styles, which antd writes at run time, and no style nonce that would cancel that', () => {
    const csp = contentSecurityPolicy(noHeader, 'abc');
    expect(directive(csp, 'style-src')).toBe("'self' 'unsafe-inline'");
    expect(directive(csp, 'script-src')).toBe("'self' 'nonce-abc'");
    expect(csp.match(/unsafe-inline/g)).toHaveLength(1);
  });

  it('adds the cloud header script origins to script-src and connect-src', () => {
    const csp = contentSecurityPolicy({ headerScriptGlobal: 'https://header.example.com/nav.js', headerScriptChina: 'not a url' }, 'n1');
    expect(directive(csp, 'script-src')).toBe("'self' https://header.example.com 'nonce-n1'");
    expect(directive(csp, 'connect-src')).toBe("'self' https://header.example.com");
  });

  it('puts a fresh nonce into the policy of an answer that asked for one, and none elsewhere', async () => {
    const app = Fastify();
    registerSecurityHeaders(app, { publicUrl: 'http://localhost', ...noHeader } as Config);
    app.get('/page', (_req, reply) => reply.type('text/html').send(`<p data-nonce="${reply.cspNonce}"></p>`));
    app.get('/api/x', () => ({ ok: true }));
    const [a, b, json] = await Promise.all([app.inject('/page'), app.inject('/page'), app.inject('/api/x')]);
    const nonceA = /data-nonce="([^"]+)"/.exec(a.body)![1]!;
    const nonceB = /data-nonce="([^"]+)"/.exec(b.body)![1]!;
    expect(nonceA).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(nonceA).not.toBe(nonceB);
    expect(a.headers['content-security-policy']).toBe(contentSecurityPolicy(noHeader, nonceA));
    expect(json.headers['content-security-policy']).toBe(contentSecurityPolicy(noHeader));
    expect(json.headers['x-frame-options']).toBe('DENY');
    expect(json.headers['cache-control']).toBe('no-store');
    await app.close();
  });
});
