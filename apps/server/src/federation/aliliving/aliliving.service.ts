/**
 * Ali Living linking (issue 14, SPEC §3 backend "ali living"): in a realm whose backend is
 * `aliliving` with `enable` on, an account that signs in is linked to its identity on the Ali
 * Living platform (living-api.ts), and the link is shown on the account's detail.
 *
 * The sign-in never waits for it and never fails because of it: `afterSignIn` only schedules
 * the work for after the answer (like notify's `defer`). A failed try is stored with its error
 * and retried by the job with backoff, and again at the account's next sign-in. Nothing is
 * called while the group is disabled; a linked account is not looked up again.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Secrets } from '../../platform/crypto.js';
import type { StoredRealmSettings } from '../../realms/realm-settings.js';
import type { AliLivingRepo } from './aliliving.repo.js';
import { LivingApiError, type LivingApi, type LivingCredentials } from './living-api.js';

type Log = Pick<FastifyBaseLogger, 'warn'>;

/** First retry after a minute, doubling, at most every six hours. */
export const RETRY_BASE_MS = 60_000;
export const RETRY_MAX_MS = 6 * 60 * 60_000;
export const retryDelay = (attempts: number) => Math.min(RETRY_BASE_MS * 2 ** Math.max(0, attempts - 1), RETRY_MAX_MS);
/** rows the retry job takes per run: at two 3 s calls each, a dead gateway still fits the job's minute */
const RETRY_BATCH = 10;

export interface AliLivingLinkView {
  identityId: string | null;
  linkedAt: number | null;
  lastError: string | null;
  lastTryAt: number;
  attempts: number;
}

export interface AliLivingDeps {
  repo: AliLivingRepo;
  api: LivingApi;
  settingsOf(realmId: string): Promise<Pick<StoredRealmSettings, 'backend_type' | 'backend'>>;
  secrets: Pick<Secrets, 'decrypt'>;
  clock: Clock;
  log: Log;
}

export function createAliLivingService(deps: AliLivingDeps) {
  const { repo, api, clock, log } = deps;
  const pending = new Set<Promise<void>>();
  /** one try per account at a time in this process (a burst of sign-ins makes one call) */
  const running = new Set<string>();

  /** The realm's credentials when linking is on; undefined otherwise (no call is made). */
  async function credentialsOf(realmId: string): Promise<LivingCredentials | undefined> {
    const s = await deps.settingsOf(realmId);
    const b = s.backend;
    if (s.backend_type !== 'aliliving' || b?.type !== 'aliliving' || !b.enable || !b.appCloudSecret) return undefined;
    return { appCloudKey: b.appCloudKey, appCloudSecret: deps.secrets.decrypt(b.appCloudSecret), projectRes: b.projectRes, appKey: b.appKey };
  }

  /**
   * Linking was turned off (or the backend changed) while the account waited for a retry: the
   * row is put back by the longest delay, so it does not come up at every run of the job.
   */
  async function park(realmId: string, accountId: string): Promise<void> {
    const r = await repo.findLink(realmId, accountId);
    if (!r || r.identity_id) return;
    const now = clock.now();
    await repo.recordFailure(realmId, accountId, 'Ali Living linking is off for this realm', now, r.attempts, now + RETRY_MAX_MS);
  }

  /** Tries once to link the account; records the outcome. Never throws. */
  async function link(realmId: string, accountId: string): Promise<void> {
    const key = `${realmId}\u0000${accountId}`;
    if (running.has(key)) return;
    running.add(key);
    let secret = '';
    try {
      const creds = await credentialsOf(realmId);
      if (!creds) return await park(realmId, accountId);
      secret = creds.appCloudSecret;
      const before = await repo.findLink(realmId, accountId);
      if (before?.identity_id) return;
      const attempts = (before?.attempts ?? 0) + 1;
      try {
        const identityId = await api.identityOf(creds, accountId);
        await repo.recordLinked(realmId, accountId, identityId, clock.now(), attempts);
      } catch (err) {
        // Our own wording (living-api.ts); the secret is removed anyway in case a peer echoed it.
        const reason = err instanceof LivingApiError ? err.message : 'link failed';
        const safe = secret ? reason.split(secret).join('***') : reason;
        const now = clock.now();
        await repo.recordFailure(realmId, accountId, safe, now, attempts, now + retryDelay(attempts));
        log.warn({ aliliving: { realmId, accountId, attempts, error: safe } }, 'Ali Living link failed; will retry');
      }
    } catch (err) {
      // the database or the realm is away: the next sign-in or the job tries again
      const message = String((err as Error)?.message ?? err);
      log.warn({ aliliving: { realmId, accountId, error: secret ? message.split(secret).join('***') : message } }, 'Ali Living link not recorded');
    } finally {
      running.delete(key);
    }
  }

  /**
   * Called by a successful sign-in: schedules the link for after the answer (the next turn
   * of the event loop, so not even its first SQL statement runs before the answer is written).
   */
  function afterSignIn(account: { id: string; realm_id: string }, seen?: { backend_type: string }): void {
    // the sign-in's own settings say another backend type: nothing to schedule
    if (seen && seen.backend_type !== 'aliliving') return;
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(async () => {
        // outside an aliliving realm nothing is linked (a row left waiting is parked by the retry job): no SQL per sign-in;
        // the settings the sign-in read at its start, when it handed them over
        const s = seen ?? (await deps.settingsOf(account.realm_id).catch(() => undefined));
        if (!s || s.backend_type === 'aliliving') await link(account.realm_id, account.id);
      })
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  /** The retry job: unlinked accounts whose next try is due. */
  async function retryDue(): Promise<number> {
    const due = await repo.listDue(clock.now(), RETRY_BATCH);
    for (const r of due) await link(r.realm_id, r.account_id);
    return due.length;
  }

  /** For the account's detail: null when the account was never tried. */
  async function linkOf(realmId: string, accountId: string): Promise<AliLivingLinkView | null> {
    const r = await repo.findLink(realmId, accountId);
    if (!r) return null;
    return { identityId: r.identity_id, linkedAt: r.linked_at, lastError: r.last_error, lastTryAt: r.last_try_at, attempts: r.attempts };
  }

  /** Waits for the links scheduled by sign-ins (tests, shutdown). */
  async function settled(): Promise<void> {
    while (pending.size > 0) await Promise.all([...pending]);
  }

  return { afterSignIn, link, retryDue, linkOf, settled };
}

export type AliLivingService = ReturnType<typeof createAliLivingService>;
