/** The audit core (issue 11): events kept with their change's transaction, paged both ways, secrets never kept. */
import { expect, it } from 'vitest';
import { describeBothDbs } from '../test/harness.js';
import { newRealmId } from '../test/kit.js';

describeBothDbs('audit core', (h) => {
  it('an event recorded in a transaction that rolls back is gone with the change', async () => {
    const realmId = newRealmId();
    const { audit } = h().ctx.services;
    await expect(
      h()
        .ctx.db.transaction()
        .execute(async (trx) => {
          await audit.record({ realmId, actor: null, action: 'test.rolled_back', result: 'ok' }, trx);
          throw new Error('the change failed');
        }),
    ).rejects.toThrow('the change failed');
    await h()
      .ctx.db.transaction()
      .execute((trx) => audit.record({ realmId, actor: null, action: 'test.kept', result: 'ok' }, trx));
    const page = await audit.list({ realmId, limit: 10 });
    expect(page.items.map((e) => e.action)).toEqual(['test.kept']);
  });

  it('keeps field names but drops malformed ones; pages newest first, forward and back, with ties on time', async () => {
    const realmId = newRealmId();
    const { audit } = h().ctx.services;
    for (let i = 0; i < 7; i++) {
      await audit.record({
        realmId,
        actor: { id: 'a1', name: 'alice' },
        action: i % 2 ? 'account.disable' : 'account.enable',
        target: { type: 'account', id: `t${i}`, name: `target${i}` },
        result: 'ok',
        changes: ['email', 'password=hunter2 secret'],
        detail: { n: i },
      });
    }
    const first = await audit.list({ realmId, limit: 3 });
    expect(first.items).toHaveLength(3);
    expect(first.items[0]!.changes).toEqual(['email']);
    expect(first.prevCursor).toBeNull();
    const second = await audit.list({ realmId, limit: 3, cursor: first.nextCursor! });
    const third = await audit.list({ realmId, limit: 3, cursor: second.nextCursor! });
    expect(third.items).toHaveLength(1);
    expect(third.nextCursor).toBeNull();
    const all = [...first.items, ...second.items, ...third.items].map((e) => e.detail.n);
    expect(new Set(all).size).toBe(7);
    const back = await audit.list({ realmId, limit: 3, cursor: second.prevCursor!, direction: 'prev' });
    expect(back.items.map((e) => e.id)).toEqual(first.items.map((e) => e.id));
    expect(back.prevCursor).toBeNull();
    const disables = await audit.list({ realmId, limit: 10, action: 'account.disable' });
    expect(disables.items).toHaveLength(3);
    const prefix = await audit.list({ realmId, limit: 10, action: 'account.' });
    expect(prefix.items).toHaveLength(7);
    const timeline = await audit.list({ realmId, limit: 10, accountId: 't2' });
    expect(timeline.items.map((e) => e.target?.name)).toEqual(['target2']);
  });
});
