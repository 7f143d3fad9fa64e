/** Envelope, headers, health, metrics, docs, project config and the console fallback (issue 2). */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { ADMIN, as, signIn } from '../test/kit.js';

const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><meta name="csp-nonce" content="__CSP_NONCE__"></head><body><div id="root"></div><script type="module" src="/assets/app.js"></script></body></html>',
);
fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), 'console.log(1)');
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

describeBothDbs(
  'platform',
  (h) => {
    it('A-12 A-41 sends a CSP with strict scripts (inline styles only), no framing, nosniff, no referrer', async () => {
      const res = await as(h()).get('/account/center');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      // SECURITY.md A-41: styles may be inline (antd), scripts never (security-headers.test.ts).
      expect(csp.split('; ').filter((d) => d.includes('unsafe-inline'))).toEqual(["style-src 'self' 'unsafe-inline'"]);
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['strict-transport-security']).toBeUndefined();
      // JSON answers carry the same policy, with no nonce (no page uses one there)
      const api = await as(h()).get('/api/users/auth/options');
      expect(String(api.headers['content-security-policy'])).toBe(csp.replace(/ 'nonce-[^']+'/, ''));
    });

    it('serves index.html for history-mode routes with a fresh nonce matching the CSP', async () => {
      const a = await as(h()).get('/account/domain?x=1');
      const b = await as(h()).get('/user/loginSSO');
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toContain('text/html');
      const nonceA = /content="([^"]+)"/.exec(a.text)?.[1];
      const nonceB = /content="([^"]+)"/.exec(b.text)?.[1];
      expect(nonceA).toBeTruthy();
      expect(nonceA).not.toBe('__CSP_NONCE__');
      expect(nonceA).not.toBe(nonceB);
      expect(String(a.headers['content-security-policy'])).toContain(`'nonce-${nonceA}'`);
    });

    it('serves built assets and 404s missing files', async () => {
      const js = await as(h()).get('/assets/app.js');
      expect(js.status).toBe(200);
      expect(js.headers['cache-control']).toContain('immutable');
      const missing = await as(h()).get('/assets/nope.js');
      expect(missing.status).toBe(404);
    });

    it('answers unknown /api routes with a 404 envelope', async () => {
      const res = await as(h()).get('/api/users/nothing-here');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ result: 'fail', code: 1004, errno: 1004, error: 'not_found', msg: 'The requested resource does not exist' });
      expect(res.headers['cache-control']).toBe('no-store');
    });

    it('answers malformed JSON and oversized bodies with catalogue codes, not 500', async () => {
      const bad = await as(h()).post('/api/users/auth/login', '{"username":', { headers: { 'content-type': 'application/json' } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(1009);
      const big = await as(h()).post('/api/users/auth/login', JSON.stringify({ username: 'a', password: 'x'.repeat(2 * 1024 * 1024) }), {
        headers: { 'content-type': 'application/json' },
      });
      expect(big.status).toBe(413);
      expect(big.body.code).toBe(1013);
    });

    it('reports liveness and readiness', async () => {
      expect((await as(h()).get('/healthz')).body).toEqual({ status: 'ok' });
      const ready = await as(h()).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toEqual({ status: 'ready', database: true });
    });

    it('exposes Prometheus metrics by route and the database pool', async () => {
      await as(h()).get('/healthz');
      const res = await as(h()).get('/metrics');
      expect(res.headers['content-type']).toContain('text/plain');
      expect(res.text).toMatch(/umbo_http_requests_total\{method="GET",route="\/healthz",status="200"\} \d+/);
      expect(res.text).toMatch(/umbo_http_request_duration_seconds_count\{method="GET",route="\/healthz"\} \d+/);
      expect(res.text).toContain(`umbo_db_pool_connections{dialect="${h().dialect}",state="total"}`);
    });

    it('generates OpenAPI from the route schemas', async () => {
      const res = await as(h()).get('/api/docs/json');
      expect(res.status).toBe(200);
      const doc = res.body;
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.paths['/api/users/auth/login'].post.requestBody).toBeTruthy();
      expect(doc.paths['/api/perm/user/info'].get.responses['200']).toBeTruthy();
      const ui = await as(h()).get('/api/docs');
      expect([200, 302]).toContain(ui.status);
    });

    it('serves project.config.json with the header settings', async () => {
      const res = await as(h()).get('/project.config.json?ts=123');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        siteTitle: 'umbo',
        defaultLocale: 'zh-CN',
        header: { globalScript: 'https://header.example.com/nav.js', chinaScript: '', chinaHosts: ['.cn'] },
      });
      const page = await as(h()).get('/');
      expect(String(page.headers['content-security-policy'])).toContain("script-src 'self' https://header.example.com");
    });

    it('keeps a sane caller request id and replaces a hostile one', async () => {
      const kept = await as(h()).get('/healthz', { headers: { 'x-request-id': 'abc-123' } });
      expect(kept.headers['x-request-id']).toBe('abc-123');
      const replaced = await as(h()).get('/healthz', { headers: { 'x-request-id': 'a\nb<script>' } });
      expect(replaced.headers['x-request-id']).toMatch(/^[a-z0-9]{32}$/);
    });
  },
  { WEB_DIST: webDist, HEADER_SCRIPT_GLOBAL: 'https://header.example.com/nav.js' },
);

describeBothDbs(
  'platform over https',
  (h) => {
    it('A-12 sends HSTS when PUBLIC_URL is https and marks the userid cookie Secure', async () => {
      const page = await as(h()).get('/healthz');
      expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
      const login = await signIn(h(), ADMIN);
      expect(login.cookies.find((c) => c.name === 'userid')?.secure).toBe(true);
    });
  },
  { PUBLIC_URL: 'https://id.example.com' },
);
