/**
 * without NOTIFY_ALLOW_PRIVATE_NETWORK a backend on a private or loopback address is
 * refused by the guarded client before any byte is sent: 1303, the backend never hears of it.
 */
delete process.env.NOTIFY_ALLOW_PRIVATE_NETWORK;

import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeBothDbs } from '../../test/harness.js';
import { signIn } from '../../test/kit.js';
import { accountsOf, itGroup, itRealm, startReference, type RefBackend } from './it.testkit.js';

let ref: RefBackend;
beforeAll(async () => {
  ref = await startReference();
});
afterAll(() => ref.close());

describeBothDbs('IT-interface backends and the guarded client', (h) => {
  it('A-37: a loopback backend is refused without the operator flag', async () => {
    const username = `guard${Math.random().toString(36).slice(2, 8)}`;
    await ref.addUser({ username, password: 'Backend-Pass-1' });
    const realmId = await itRealm(h(), itGroup('ecogloble', ref.port));
    const res = await signIn(h(), { username, password: 'Backend-Pass-1', realmId });
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 1303, errData: { reason: 'refused' } });
    expect(await ref.requests()).toEqual([]);
    expect(await accountsOf(h(), realmId)).toEqual([]);
  });
});
