/** The outbox as administrators of the master realm read it (issue 3). */
import { MASTER_REALM, type Principal } from '../perm/perm.service.js';
import type { Secrets } from '../platform/crypto.js';
import { assertThat } from '../platform/errors.js';
import type { OutboxQuery, OutboxRepo } from './outbox.repo.js';

export function createOutboxService(deps: { outbox: OutboxRepo; secrets: Secrets }) {
  async function list(principal: Principal, q: OutboxQuery) {
    // 'outbox.query' is a platform permission: only held in the master realm counts.
    assertThat(principal.realmId === MASTER_REALM, 'FORBIDDEN', { service: 'users', resource: 'outbox', perm: 'query' });
    const [rows, total] = await Promise.all([deps.outbox.listOutboxMessages(q), deps.outbox.countOutboxMessages(q)]);
    const items = rows.map((r) => ({
      id: r.id,
      realmId: r.realm_id,
      channel: r.channel,
      recipient: r.recipient,
      subject: deps.secrets.decrypt(r.subject),
      body: deps.secrets.decrypt(r.body),
      createdAt: r.created_at,
    }));
    return { items, total };
  }
  return { list };
}

export type OutboxService = ReturnType<typeof createOutboxService>;
