/**
 * /loginByFToken (SPEC §2): a signed-in account (e.g. an app) asks for a short-lived,
 * single-use token and hands it to the browser, which exchanges it for a console session.
 * The token names its realm (`{realm}.{random}`) and is kept only as a keyed hash in the
 * code store under its own type, so no other kind of code is accepted in its place.
 * It is bound to the session that asked for it (issue 8, A-35): once that session ends — a
 * logout, a password reset or change, "sign out everywhere" — the token is refused, so a
 * stolen session cannot mint tokens that outlive its revocation.
 */
import type { Account } from '../../accounts/accounts.repo.js';
import type { Session } from '../sessions.repo.js';
import { codeError } from '../../codes/codes.service.js';
import { FTOKEN_DEFAULTS } from '../../codes/defaults.js';
import { randomString } from '../../platform/crypto.js';
import { fail } from '../../platform/errors.js';
import type { FlowDeps, RequestMeta } from './deps.js';
import { completeSignIn } from './sign-in.js';

const PURPOSE = 'ftoken';

export function createFTokenService(d: FlowDeps) {
  const keyOf = (realmId: string, secret: string) => ({ realmId, purpose: PURPOSE, targetHash: d.secrets.hash('ftoken-key', secret) });
  const hashOf = (secret: string) => d.secrets.hash('ftoken', secret);

  async function issue(account: Account, session: Pick<Session, 'id'>): Promise<{ ftoken: string; expiresAt: number }> {
    const secret = randomString(40);
    const now = d.clock.now();
    const expiresAt = now + FTOKEN_DEFAULTS.ttlMs;
    await d.store.putCode(keyOf(account.realm_id, secret), { codeHash: hashOf(secret), serialNo: PURPOSE, subject: session.id, createdAt: now, expiresAt }, 0);
    return { ftoken: `${account.realm_id}.${secret}`, expiresAt };
  }

  async function exchange(ftoken: string, meta: RequestMeta) {
    const dot = ftoken.lastIndexOf('.');
    const realmId = ftoken.slice(0, dot);
    const secret = ftoken.slice(dot + 1);
    if (dot < 1 || !/^[A-Za-z0-9]{40}$/.test(secret) || realmId.length > 64) throw fail('CODE_INVALID');
    const res = await d.store.checkCode(keyOf(realmId, secret), { codeHash: hashOf(secret), serialNo: PURPOSE, now: d.clock.now(), maxAttempts: 1 });
    if (res.status !== 'ok') throw codeError('sms', res.status);
    // The token names the session that asked for it; its account is that session's.
    const accountId = await d.sessions.liveAccountOf(realmId, res.subject);
    if (!accountId) throw fail('CODE_INVALID');
    const account = await d.accounts.findAccountById(realmId, accountId);
    if (!account) throw fail('CODE_INVALID');
    try {
      return await completeSignIn(d, account, { ...meta, method: 'ftoken', skipSecondFactor: true });
    } catch (err) {
      // Only an account's state fails here (disabled, not activated): a bad token names no account and is not recorded.
      await d.signIns?.failed('ftoken', realmId, { account }, meta, err);
      throw err;
    }
  }

  return { issue, exchange };
}

export type FTokenService = ReturnType<typeof createFTokenService>;
