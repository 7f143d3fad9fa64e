/**
 * OAuth records (SPEC §2 account/oauthList, §3 "OAuth record": client name, client id, OAuth
 * time; issue 12): a user sees and revokes their own grants; administrators those of their
 * realm. Revoking a record also ends every token the user holds for that client, and the
 * sub-client tokens derived from them (RFC 7009 §2.1 spirit: a revoked grant leaves nothing
 * usable), in the same transaction as the record's removal, with its audit event.
 */
import type { OAuthRecordItem, OAuthRecordList, OAuthRecordParams } from '@umbo/contracts';
import type { Account, AccountRepo } from '../accounts/accounts.repo.js';
import type { AuditActor, AuditService } from '../audit/audit.service.js';
import type { ClientRepo } from '../clients/clients.repo.js';
import type { Db, Transact } from '../platform/db.js';
import { assertThat } from '../platform/errors.js';
import type { OAuthConsentListRow, OAuthConsentRepo } from './store/consents.repo.js';

export interface RecordCaller {
  actor: AuditActor | null;
  request?: { ip: string; userAgent: string } | undefined;
}

/** Ends the (account, client) tokens: services.oauthTokens.revokeFor (H-token), passed in by composition. */
export type RevokeFor = (o: { accountId: string; clientRef: string; reason: string }, trx: Db) => Promise<unknown>;

export function createRecordsService(deps: {
  consents: OAuthConsentRepo;
  clients: Pick<ClientRepo, 'findByClientId'>;
  accounts: Pick<AccountRepo, 'findAccountById'>;
  revokeFor: RevokeFor;
  audit: AuditService;
  transact: Transact;
}) {
  const { consents, clients, audit, transact } = deps;

  const item = (r: OAuthConsentListRow): OAuthRecordItem => ({
    clientName: r.client_name,
    clientId: r.client_id,
    scope: r.scope,
    oauthTime: Number(r.updated_at),
    createTime: Number(r.created_at),
    accountId: r.account_id,
    accountName: r.username,
  });

  async function listOwn(account: Pick<Account, 'id'>, q: OAuthRecordParams): Promise<OAuthRecordList> {
    // one person's grants are few: the page is cut here
    const rows = await consents.listByAccount(account.id);
    const offset = q.offset;
    return { items: rows.slice(offset, offset + q.limit).map(item), total: rows.length };
  }

  async function listRealm(realmId: string, q: OAuthRecordParams): Promise<OAuthRecordList> {
    const [rows, total] = await Promise.all([consents.listByRealm(realmId, { limit: q.limit, offset: q.offset }), consents.countByRealm(realmId)]);
    return { items: rows.map(item), total };
  }

  /** The record of (account, client) in the realm goes, with the tokens; 1004 when there is none (A-39: ids of another realm find nothing). */
  async function revoke(caller: RecordCaller, realmId: string, account: Pick<Account, 'id' | 'username'>, clientId: string, by: 'user' | 'admin') {
    const client = await clients.findByClientId(realmId, clientId);
    assertThat(client, 'NOT_FOUND');
    const found = await consents.find(account.id, client.id);
    assertThat(found && found.realm_id === realmId, 'NOT_FOUND');
    await transact(async (trx) => {
      assertThat(await consents.delete(account.id, client.id, trx), 'NOT_FOUND');
      await deps.revokeFor({ accountId: account.id, clientRef: client.id, reason: 'consent_revoked' }, trx);
      await audit.record(
        {
          realmId,
          actor: caller.actor,
          action: 'oauth.consent_revoke',
          target: { type: 'client', id: client.clientId, name: client.name },
          result: 'ok',
          request: caller.request,
          detail: { account: account.username, by },
        },
        trx,
      );
    });
  }

  /** The signed-in user's own grant to a client of their realm. */
  const revokeOwn = (caller: RecordCaller, account: Pick<Account, 'id' | 'username' | 'realm_id'>, clientId: string) =>
    revoke(caller, account.realm_id, account, clientId, 'user');

  /** An administrator revokes a record of their realm (the guard decided oauthList.delete there). */
  async function revokeInRealm(caller: RecordCaller, realmId: string, accountId: string, clientId: string) {
    const account = await deps.accounts.findAccountById(realmId, accountId);
    assertThat(account, 'NOT_FOUND');
    await revoke(caller, realmId, account, clientId, 'admin');
  }

  return { listOwn, listRealm, revokeOwn, revokeInRealm };
}

export type RecordsService = ReturnType<typeof createRecordsService>;
