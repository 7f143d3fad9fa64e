/**
 * Image captcha (SPEC §5; issue 3): SVG made by the server without the answer in it, single
 * use, expires by the injected clock, 4005 when wrong; the realm's captchaPolicy for the
 * password form ('always' | 'after_failures').
 */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { newRealmId, putRealm } from '../auth/flows/testing/flows-helpers.js';
import { CAPTCHA_ALPHABET } from './glyphs.js';
import { renderCaptcha } from './render.js';

describeBothDbs('captcha', (h) => {
  const captcha = () => h().ctx.services.flows.captcha;
  const code = (p: Promise<unknown>) => p.then(() => 0, (e: { def?: { code: number } }) => e.def?.code ?? -1);

  it('GET /api/users/auth/captcha answers an SVG image that does not contain its answer', async () => {
    const res = await h().app.inject({ method: 'GET', url: '/api/users/auth/captcha' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json().data as { serialNo: string; image: string; expiresAt: number };
    expect(data.serialNo).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(data.expiresAt).toBe(h().clock.now() + 120_000);
    const svg = Buffer.from(data.image.replace('data:image/svg+xml;base64,', ''), 'base64').toString();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).not.toMatch(/<text|<script|href/);
    const unknown = await h().app.inject({ method: 'GET', url: '/api/users/auth/captcha?realm_id=nope', headers: { 'accept-language': 'en' } });
    expect(unknown.statusCode).toBe(404);
  });

  it('every glyph renders; the alphabet has no look-alikes', () => {
    expect(CAPTCHA_ALPHABET).not.toMatch(/[01OILSBZGQ]/);
    expect(renderCaptcha(CAPTCHA_ALPHABET)).toContain('<path');
  });

  it('a right answer passes once (case-insensitive); wrong, reused or missing answers are 4005', async () => {
    const c = await captcha().issue('master');
    expect(await code(captcha().verify('master', { captcha: c.answer.toLowerCase(), serialNo: c.serialNo }))).toBe(0);
    expect(await code(captcha().verify('master', { captcha: c.answer, serialNo: c.serialNo }))).toBe(4005);
    const d = await captcha().issue('master');
    expect(await code(captcha().verify('master', { captcha: 'ZZZZ', serialNo: d.serialNo }))).toBe(4005);
    expect(await code(captcha().verify('master', { captcha: d.answer, serialNo: d.serialNo }))).toBe(4005);
    expect(await code(captcha().verify('master', { serialNo: d.serialNo }))).toBe(4005);
    const other = await putRealm(h(), newRealmId());
    const e = await captcha().issue('master');
    expect(await code(captcha().verify(other, { captcha: e.answer, serialNo: e.serialNo }))).toBe(4005);
  });

  it('A-47 a captcha expires after 2 minutes of the injected clock', async () => {
    const c = await captcha().issue('master');
    h().clock.advance(120_000);
    expect(await code(captcha().verify('master', { captcha: c.answer, serialNo: c.serialNo }))).toBe(4005);
  });

  it("'always' asks every time; 'after_failures' only after 3 failures of an account or an IP", async () => {
    const realm = await putRealm(h(), newRealmId());
    expect(await captcha().requiredForPassword(realm, 'bob', '192.0.2.9')).toBe(true);
    await putRealm(h(), realm, { captchaPolicy: 'after_failures' });
    expect(await captcha().requiredForPassword(realm, 'bob', '192.0.2.9')).toBe(false);
    expect(await code(captcha().guardPasswordLogin(realm, { username: 'bob', ip: '192.0.2.9' }))).toBe(0);
    for (let i = 0; i < 3; i++) await captcha().recordPasswordFailure(realm, 'Bob', `192.0.2.${20 + i}`);
    expect(await captcha().requiredForPassword(realm, 'bob', '192.0.2.9')).toBe(true);
    expect(await code(captcha().guardPasswordLogin(realm, { username: 'bob', ip: '192.0.2.9' }))).toBe(4005);
    expect(await captcha().requiredForPassword(realm, 'alice', '192.0.2.9')).toBe(false);
    h().clock.advance(15 * 60_000);
    expect(await captcha().requiredForPassword(realm, 'bob', '192.0.2.9')).toBe(false);
  });
});
