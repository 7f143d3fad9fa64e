/**
 * Signatures asked for in one turn are made together at the turn's check phase, each token is
 * the one its caller asked for and verifies, and one failure fails only its own caller.
 */
import { describe, expect, it, vi } from 'vitest';
import { generateKeyPair, signJwt, verifyJwt, type SigningKey } from '../jwt.js';
import { BATCH_BUDGET_MS, createSignBatch } from './sign-batch.js';

const NOW = Date.UTC(2026, 0, 1, 12);
const ISS = 'http://umbo.test/realms/r1';
const es = generateKeyPair('ES256');
const key: SigningKey = { kid: 'es-1', alg: 'ES256', privateKey: es.privateKey };
const verify = (jwt: string) =>
  verifyJwt(jwt, [{ kid: 'es-1', alg: 'ES256', publicKey: es.publicKey }], { typ: 'at+jwt', issuer: ISS, audience: 'api', now: NOW }).payload;
const payload = (sub: string) => ({ iss: ISS, aud: 'api', sub, iat: NOW / 1000, exp: NOW / 1000 + 300 });

describe('sign batch', () => {
  it('signs the requests of one turn back to back after that turn, each its own valid token', async () => {
    const signNow = vi.fn(signJwt);
    const sign = createSignBatch(signNow);
    const pending = ['a', 'b', 'c'].map((sub) => sign(key, { typ: 'at+jwt' }, payload(sub)));
    // nothing is signed while the turn that asked is still running
    expect(signNow).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(signNow).not.toHaveBeenCalled();
    const jwts = await Promise.all(pending);
    expect(signNow).toHaveBeenCalledTimes(3);
    expect(jwts.map((jwt) => verify(jwt).sub)).toEqual(['a', 'b', 'c']);
  });

  it('300 asked at once: several batches (the budget splits them), every caller its own valid token', async () => {
    const signNow = vi.fn(signJwt);
    const sign = createSignBatch(signNow);
    const subs = Array.from({ length: 300 }, (_, n) => `s${n}`);
    let settledEarly = 0;
    const pending = subs.map((sub) => sign(key, { typ: 'at+jwt' }, payload(sub)).finally(() => void settledEarly++));
    const first = await pending[0]!;
    // 300 ES256 signatures take longer than one batch's budget: some still wait when the first is out
    expect(settledEarly).toBeLessThan(300);
    const jwts = [first, ...(await Promise.all(pending.slice(1)))];
    expect(signNow).toHaveBeenCalledTimes(300);
    expect(jwts.map((jwt) => verify(jwt).sub)).toEqual(subs);
  });

  it('a later turn starts a batch of its own', async () => {
    const signNow = vi.fn(signJwt);
    const sign = createSignBatch(signNow);
    await sign(key, { typ: 'at+jwt' }, payload('first'));
    expect(signNow).toHaveBeenCalledTimes(1);
    await Promise.all([sign(key, { typ: 'at+jwt' }, payload('x')), sign(key, { typ: 'at+jwt' }, payload('y'))]);
    expect(signNow).toHaveBeenCalledTimes(3);
  });

  it('a signature that throws rejects its own caller only', async () => {
    const sign = createSignBatch((k, h, p) => {
      if ((p as { sub: string }).sub === 'bad') throw new Error('no such key');
      return signJwt(k, h, p);
    });
    const [good, bad, alsoGood] = await Promise.allSettled([
      sign(key, { typ: 'at+jwt' }, payload('ok-1')),
      sign(key, { typ: 'at+jwt' }, payload('bad')),
      sign(key, { typ: 'at+jwt' }, payload('ok-2')),
    ]);
    expect(good.status).toBe('fulfilled');
    expect(bad).toMatchObject({ status: 'rejected', reason: { message: 'no such key' } });
    expect(alsoGood.status).toBe('fulfilled');
  });

  it('a batch that has signed for its budget lets its answers go and leaves the rest to the next turn', async () => {
    const slow = vi.fn((k: SigningKey, h: { typ: string }, p: object) => {
      const until = performance.now() + 2 * BATCH_BUDGET_MS;
      while (performance.now() < until); // a signature slower than the whole budget (RS256 on a slow core)
      return signJwt(k, h, p);
    });
    const sign = createSignBatch(slow);
    const [first, ...rest] = ['a', 'b', 'c'].map((sub) => sign(key, { typ: 'at+jwt' }, payload(sub)));
    await first;
    // the first answer is out while the others still wait for their own turn
    expect(slow).toHaveBeenCalledTimes(1);
    await Promise.all(rest);
    expect(slow).toHaveBeenCalledTimes(3);
  });
});
