/**
 * The code store, in the database and in Redis (issue 3; ): single use under
 * concurrency, stored only hashed, daily caps per target and per IP, realm-scoped keys.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import type { CodeTarget } from './codes.service.js';
import { createRealm } from '../test/kit.js';

const REDIS = 'redis://127.0.0.1:6379/0';
const prefix = `umbo-test:${crypto.randomBytes(6).toString('hex')}:`;
const raw = new Redis(REDIS, { lazyConnect: true });
afterAll(async () => {
  const keys = await raw.keys(`${prefix}*`);
  if (keys.length) await raw.del(...keys);
  raw.disconnect();
});

for (const mode of ['database', 'redis'] as const) {
  describeBothDbs(
    `code store in ${mode}`,
    (h) => {
      const target = (t: Partial<CodeTarget> = {}): CodeTarget => ({
        realmId: 'master',
        purpose: 'login',
        channel: 'sms',
        target: `+86139${crypto.randomInt(10_000_000, 99_999_999)}`,
        ...t,
      });
      const errCode = (p: Promise<unknown>) =>
        p.then(
          () => 0,
          (e: { def?: { code: number } }) => e.def?.code ?? -1,
        );

      it(`keeps codes in ${mode}`, () => {
        expect(h().ctx.stores.codes.kind).toBe(mode);
      });

      it('A-33 stores neither the code nor the target in the clear', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.1' });
        const stored = mode === 'redis' ? await dumpRedis() : JSON.stringify(await h().dbh.db.selectFrom('verification_codes').selectAll().execute());
        expect(stored.length).toBeGreaterThan(0);
        expect(stored).not.toContain(issued.code);
        expect(stored).not.toContain(t.target);
        expect(stored).not.toContain(t.target.slice(3));
      });

      it('a counter counts per window and gives an event back, never below zero', async () => {
        const store = h().ctx.stores.codes;
        const now = h().clock.now();
        const key = { realmId: 'master', name: 'release', keyHash: crypto.randomBytes(8).toString('hex'), windowMs: 60_000, now };
        expect(await store.hitCounter(key)).toBe(1);
        expect(await store.hitCounter(key)).toBe(2);
        await store.releaseCounters([key]);
        expect(await store.hitCounter(key)).toBe(2);
        for (let i = 0; i < 4; i++) await store.releaseCounters([key]);
        expect(await store.hitCounter(key)).toBe(1);
        // the next window starts again from nothing; several at once come back in key order
        expect(await store.hitCounter({ ...key, now: now + 60_000 })).toBe(1);
        const other = { ...key, name: 'release-b' };
        expect(await store.hitCounters([other, key])).toEqual([1, 2]);
        await store.releaseCounters([key, other]);
        expect(await store.hitCounters([key, other])).toEqual([2, 1]);
      });

      it('A-33 1,000 parallel wrong guesses: exactly 5 are compared, then the right code is refused', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.5' });
        const guesses = Array.from({ length: 1000 }, (_, i) => String(i).padStart(6, '0')).filter((c) => c !== issued.code);
        const results = await Promise.all(guesses.map((code) => errCode(h().ctx.services.codes.verify(t, { serialNo: issued.serialNo, code }))));
        // 4006 = compared and wrong; 4007 = refused without comparing (too many tries)
        expect(results.filter((c) => c === 4006)).toHaveLength(5);
        expect(results.filter((c) => c === 4007)).toHaveLength(guesses.length - 5);
        expect(await errCode(h().ctx.services.codes.verify(t, issued))).toBe(4007);
      });

      it('A-33 a burst of guesses with the right code among them compares at most 5', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.6' });
        const guesses = Array.from({ length: 500 }, (_, i) => (i === 250 ? issued.code : String(100_000 + i)));
        const results = await Promise.all(guesses.map((code) => errCode(h().ctx.services.codes.verify(t, { serialNo: issued.serialNo, code }))));
        const compared = results.filter((c) => c === 0 || c === 4006).length;
        expect(compared).toBeLessThanOrEqual(5);
        expect(results.filter((c) => c === 0).length).toBeLessThanOrEqual(1);
      });

      it('issue 8: wrong second factors spend the code that opened the step (2 tries each)', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.7' });
        const codes = h().ctx.services.codes;
        await codes.spendForWrongSecondFactor(t, 'another-serial'); // another transaction's code: untouched
        await codes.spendForWrongSecondFactor(t, issued.serialNo);
        await codes.spendForWrongSecondFactor(t, issued.serialNo);
        expect(await errCode(codes.verify(t, issued, { keep: true }))).toBe(0);
        await codes.spendForWrongSecondFactor(t, issued.serialNo);
        expect(await errCode(codes.verify(t, issued))).toBe(4007);
      });

      it('twenty parallel checks of the right code: exactly one wins', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.2' });
        const results = await Promise.all(Array.from({ length: 20 }, () => errCode(h().ctx.services.codes.verify(t, issued))));
        expect(results.filter((c) => c === 0)).toHaveLength(1);
        expect(results.filter((c) => c === 4007)).toHaveLength(19);
      });

      it('A-33 a kept check leaves a right code usable, counts a wrong one, and refuses a spent one', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.4' });
        const codes = h().ctx.services.codes;
        expect(await errCode(codes.verify(t, issued, { keep: true }))).toBe(0);
        expect(await errCode(codes.verify(t, issued, { keep: true }))).toBe(0);
        // wrong answers under keep still count: after five tries the code is gone
        for (let i = 0; i < 5; i++) expect(await errCode(codes.verify(t, { ...issued, code: 'nope' }, { keep: true }))).toBe(4006);
        expect(await errCode(codes.verify(t, issued, { keep: true }))).toBe(4007);
        const u = target();
        const other = await codes.issue(u, { ip: '192.0.2.4' });
        expect(await errCode(codes.verify(u, other))).toBe(0);
        expect(await errCode(codes.verify(u, other, { keep: true }))).toBe(4007);
      });

      it('A-47 expiry follows the injected clock to the millisecond', async () => {
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.3' });
        h().clock.advance(299_999);
        expect(await errCode(h().ctx.services.codes.verify(t, { ...issued, code: 'nope' }))).toBe(4006);
        expect(await errCode(h().ctx.services.codes.verify(t, issued))).toBe(0);
        const t2 = target();
        const late = await h().ctx.services.codes.issue(t2, { ip: '192.0.2.3' });
        h().clock.advance(300_000);
        expect(await errCode(h().ctx.services.codes.verify(t2, late))).toBe(4004);
      });

      it('daily caps: 10 codes a day per target, 30 per IP (1006), new day new count', async () => {
        // Days are UTC days: start an hour into one, so the ten minutes below never cross midnight.
        const day = 24 * 3600_000;
        h().clock.set((Math.floor(h().clock.now() / day) + 1) * day + 3600_000);
        const t = target();
        const ip = `198.51.100.${crypto.randomInt(1, 254)}`;
        for (let i = 0; i < 10; i++) {
          await h().ctx.services.codes.issue(t, { ip });
          h().clock.advance(60_000);
        }
        expect(await errCode(h().ctx.services.codes.issue(t, { ip }))).toBe(1006);
        for (let i = 0; i < 19; i++) await h().ctx.services.codes.issue(target(), { ip });
        expect(await errCode(h().ctx.services.codes.issue(target(), { ip }))).toBe(1006);
        h().clock.advance(24 * 3600_000);
        expect(await errCode(h().ctx.services.codes.issue(t, { ip }))).toBe(0);
      });

      it('a code is scoped to its realm and its purpose', async () => {
        const realm = await createRealm(h());
        const t = target();
        const issued = await h().ctx.services.codes.issue(t, { ip: '192.0.2.4' });
        expect(await errCode(h().ctx.services.codes.verify({ ...t, realmId: realm }, issued))).toBe(4006);
        expect(await errCode(h().ctx.services.codes.verify({ ...t, purpose: 'retrieve' }, issued))).toBe(4006);
        expect(await errCode(h().ctx.services.codes.verify({ ...t, channel: 'email' }, issued))).toBe(5002);
        expect(await errCode(h().ctx.services.codes.verify(t, issued))).toBe(0);
      });

      async function dumpRedis(): Promise<string> {
        const keys = await raw.keys(`${prefix}*`);
        expect(keys.every((k) => k.startsWith(`${prefix}realm:`))).toBe(true);
        const values = await Promise.all(
          keys.map(async (k) => ((await raw.type(k)) === 'hash' ? JSON.stringify(await raw.hgetall(k)) : String(await raw.get(k)))),
        );
        return keys.join('\n') + values.join('\n');
      }
    },
    mode === 'redis' ? { REDIS_URL: `${REDIS}?keyPrefix=${prefix}` } : {},
  );
}
