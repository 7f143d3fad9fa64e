/**
 * The token endpoint's audit events (issue 12: every issuance, refresh, exchange and revocation
 * is an event — actor, client, realm, grant type, result — never a token, code or secret):
 *   oauth.token.issued | oauth.token.refreshed | oauth.token.exchanged  (result ok or fail)
 *   oauth.token.revoked (RFC 7009, the revocation endpoint)
 * Family revocations (code reuse, replay, security events) are `oauth.grant.revoked`
 * (revocation.ts). A failure's event never replaces the failure's own answer.
 *
 * client_credentials is the exception in form, not in substance: a machine may ask for a token
 * per call, and one audit row per token would be the only database write of that path (the
 * issue's bench) and would bury the trail. Its issuances are counted per (realm, client,
 * result) in this process and written as ONE `oauth.token.issued` event per minute with the
 * count and the first and last time (`detail.count`, `detail.from`, `detail.to`), and when the
 * process stops. What a crash loses is at most that minute's counts of this process.
 */
import type { AuditService } from '../../audit/audit.service.js';
import type { OAuthClient } from '../../clients/clients.repo.js';
import type { Clock } from '../../platform/clock.js';
import type { OAuthError } from '../errors.js';
import type { GrantTrace } from '../grants/types.js';

export interface TokenRequestMeta {
  realmId: string;
  client: Pick<OAuthClient, 'id' | 'clientId'>;
  grantType: string;
  request: { ip: string; userAgent: string };
}

/** How often the counted client_credentials issuances are written. */
export const TALLY_FLUSH_MS = 60_000;

interface Tally {
  realmId: string;
  client: Pick<OAuthClient, 'id' | 'clientId'>;
  result: 'ok' | 'fail';
  error: string | undefined;
  count: number;
  from: number;
  to: number;
}

const eventOf = (grantType: string, trace: GrantTrace) =>
  trace.event ?? (grantType === 'refresh_token' ? 'refreshed' : grantType.endsWith(':token-exchange') ? 'exchanged' : 'issued');

export function createTokenEvents(audit: Pick<AuditService, 'record'>, clock: Clock) {
  function record(m: TokenRequestMeta, trace: GrantTrace, result: 'ok' | 'fail', detail: Record<string, string>) {
    return audit.record({
      realmId: m.realmId,
      actor: trace.account ? { id: trace.account.id, name: trace.account.name } : null,
      action: `oauth.token.${eventOf(m.grantType, trace)}`,
      target: { type: 'client', id: m.client.id, name: m.client.clientId },
      result,
      request: m.request,
      detail: { grantType: m.grantType, clientId: m.client.clientId, ...(trace.familyId ? { grant: trace.familyId } : {}), ...trace.detail, ...detail },
    });
  }

  const tallies = new Map<string, Tally>();
  function count(m: TokenRequestMeta, result: 'ok' | 'fail', error?: string): void {
    const key = `${m.realmId}\0${m.client.id}\0${result}\0${error ?? ''}`;
    const now = clock.now();
    const t = tallies.get(key);
    if (t) {
      t.count++;
      t.to = now;
    } else {
      tallies.set(key, { realmId: m.realmId, client: m.client, result, error, count: 1, from: now, to: now });
    }
  }

  /** Writes the counted client_credentials issuances (one event per realm, client and result). */
  async function flush(): Promise<void> {
    const batch = [...tallies.values()];
    tallies.clear();
    for (const t of batch) {
      await audit.record({
        realmId: t.realmId,
        actor: null,
        action: 'oauth.token.issued',
        target: { type: 'client', id: t.client.id, name: t.client.clientId },
        result: t.result,
        detail: {
          grantType: 'client_credentials',
          clientId: t.client.clientId,
          count: t.count,
          from: t.from,
          to: t.to,
          ...(t.error ? { error: t.error } : {}),
        },
      });
    }
  }
  const timer = setInterval(() => void flush().catch(() => undefined), TALLY_FLUSH_MS);
  timer.unref();

  return {
    /** undefined when nothing is to be awaited (a counted client_credentials issuance: no promise per token) */
    succeeded(m: TokenRequestMeta, trace: GrantTrace): Promise<void> | undefined {
      if (m.grantType === 'client_credentials') {
        count(m, 'ok');
        return undefined;
      }
      return record(m, trace, 'ok', {}).then(() => undefined);
    },
    async failed(m: TokenRequestMeta, trace: GrantTrace, err: OAuthError): Promise<void> {
      if (m.grantType === 'client_credentials') return count(m, 'fail', err.error);
      try {
        await record(m, trace, 'fail', { error: err.error });
      } catch {
        // the caller answers its own error; a missing failure event is the lesser loss
      }
    },
    /** RFC 7009: one token revoked by its client. */
    revoked: (m: Omit<TokenRequestMeta, 'grantType'>, tokenType: 'access_token' | 'refresh_token') =>
      audit.record({
        realmId: m.realmId,
        actor: null,
        action: 'oauth.token.revoked',
        target: { type: 'client', id: m.client.id, name: m.client.clientId },
        result: 'ok',
        request: m.request,
        detail: { clientId: m.client.clientId, tokenType },
      }),
    flush,
    /** The process stops: the counts so far are written. */
    async close(): Promise<void> {
      clearInterval(timer);
      await flush();
    },
  };
}

export type TokenEvents = ReturnType<typeof createTokenEvents>;
