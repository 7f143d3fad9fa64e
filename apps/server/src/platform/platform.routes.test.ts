/** Envelope, headers, health, metrics, docs, project config and the console fallback (issue 2). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { ADMIN_PASSWORD, describeBothDbs } from '../test/harness.js';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__"></head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');

describeBothDbs(
  'platform',
  (h) => {
    it('A-12 A-41 sends a strict CSP without unsafe-inline, no framing, nosniff, no referrer', async () => {
      const res = await h().app.inject({ method: 'GET', url: '/account/center' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      // JSON answers carry the same policy, with no nonce (no page uses one there)
      const api = await h().app.inject({ method: 'GET', url: '/api/users/auth/options' });
      expect(String(api.headers['content-security-policy'])).toBe(csp.replace(/ 'nonce-[^']+'/, ''));
    });

    it('serves index.html for history-mode routes with a fresh nonce matching the CSP', async () => {
      const a = await h().app.inject({ method: 'GET', url: '/account/domain?x=1' });
      const b = await h().app.inject({ method: 'GET', url: '/user/loginSSO' });
      expect(a.statusCode).toBe(200);
      expect(a.headers['content-type']).toContain('text/html');
      const nonceA = /content="([^"]+)"/.exec(a.body)?.[1];
      const nonceB = /content="([^"]+)"/.exec(b.body)?.[1];
      expect(nonceA).toBeTruthy();
      expect(nonceA).not.toBe('__CSP_NONCE__');
      expect(nonceA).not.toBe(nonceB);
      expect(String(a.headers['content-security-policy'])).toContain(`'nonce-${nonceA}'`);
    });

    it('serves built assets and 404s missing files', async () => {
      const js = await h().app.inject({ method: 'GET', url: '/assets/app.js' });
      expect(js.statusCode).toBe(200);
      expect(js.headers['cache-control']).toContain('immutable');
      const missing = await h().app.inject({ method: 'GET', url: '/assets/nope.js' });
      expect(missing.statusCode).toBe(404);
    });

    it('answers unknown /api routes with a 404 envelope', async () => {
      const res = await h().app.inject({ method: 'GET', url: '/api/users/nothing-here', headers: { 'accept-language': 'en' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ result: 'fail', code: 1004, errno: 1004, error: 'not_found', msg: 'The requested resource does not exist' });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('answers malformed JSON and oversized bodies with catalogue codes, not 500', async () => {
      const bad = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"username":' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().code).toBe(1009);
      const big = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', headers: { 'content-type': 'application/json' }, payload: JSON.stringify({ username: 'a', password: 'x'.repeat(2 * 1024 * 1024) }) });
      expect(big.statusCode).toBe(413);
      expect(big.json().code).toBe(1013);
    });

    it('reports liveness and readiness', async () => {
      expect((await h().app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
      const ready = await h().app.inject({ method: 'GET', url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', database: true });
    });

    it('exposes Prometheus metrics by route and the database pool', async () => {
      await h().app.inject({ method: 'GET', url: '/healthz' });
      const res = await h().app.inject({ method: 'GET', url: '/metrics' });
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.body).toMatch(/umbo_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
      expect(res.body).toMatch(/umbo_http_request_duration_seconds_count\{method="GET",route="\/healthz"\} \d+/);
      expect(res.body).toContain(`umbo_db_pool_connections{dialect="${h().dialect}",state="total"}`);
    });

    it('generates OpenAPI from the route schemas', async () => {
      const res = await h().app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.paths['/api/users/auth/login'].post.requestBody).toBeTruthy();
      expect(doc.paths['/api/perm/user/info'].get.responses['200']).toBeTruthy();
      const ui = await h().app.inject({ method: 'GET', url: '/api/docs' });
      expect([200, 302]).toContain(ui.statusCode);
    });

    it('serves project.config.json with the header settings', async () => {
      const res = await h().app.inject({ method: 'GET', url: '/project.config.json?ts=123' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({
        siteTitle: 'umbo',
        defaultLocale: 'zh-CN',
        header: { globalScript: 'https://header.example.com/nav.js', chinaScript: '', chinaHosts: ['.cn'] },
      });
      const page = await h().app.inject({ method: 'GET', url: '/' });
      expect(String(page.headers['content-security-policy'])).toContain("script-src 'self' https://header.example.com");
    });

    it('keeps a sane caller request id and replaces a hostile one', async () => {
      const kept = await h().app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
      expect(kept.headers['x-request-id']).toBe('abc-123');
      const replaced = await h().app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a\nb<script>' } });
      expect(replaced.headers['x-request-id']).toMatch(/^[a-z0-9]{32}$/);
    });
  },
  { WEB_DIST: webDist, HEADER_SCRIPT_GLOBAL: 'https://header.example.com/nav.js' },
);

describeBothDbs(
  'platform over https',
  (h) => {
    it('A-12 sends HSTS when PUBLIC_URL is https and marks the userid cookie Secure', async () => {
      const page = await h().app.inject({ method: 'GET', url: '/healthz' });
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const login = await h().app.inject({ method: 'POST', url: '/api/users/auth/login', payload: { ...(await h().solveCaptcha()), username: 'admin', password: ADMIN_PASSWORD } });
      expect(login.cookies.find((c) => c.name === 'userid')?.secure).toBe(true);
    });
  },
  { PUBLIC_URL: 'https://id.example.com' },
);
