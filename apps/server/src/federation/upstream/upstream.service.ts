/**
 * Sign-in through a realm's upstream OpenID provider (issue 14), as three steps:
 *   start    → the authorization request (code flow, PKCE S256, state, nonce). The
 *              transaction rides in a sealed, HttpOnly, SameSite=Lax cookie bound to this
 *              browser (login CSRF), and a single-use marker of its state in the code store
 *              makes the callback work once (replay).
 *   callback → openid-client validates the answer and the ID token fully; the identity is
 *              linked (link.ts); a single-use hand-over ticket is minted for the console.
 *   exchange → the console's sign-in page trades the ticket for the same session, answer
 *              and `userid` cookie as the password form (auth/flows/sign-in.ts), then goes on
 *              as after any sign-in (an OAuth challenge it carried continues there). An
 *              account with a one-time password gives it here too (1503, then the OTP).
 * The ticket exists because the console keeps its bearer token in localStorage (SPEC §3/§4):
 * a redirect cannot put it there, so the page fetches it, as /loginByFToken does.
 */
import { ErrorCodes, type PersonFederatedLink } from '@umbo/contracts';
import type { Account } from '../../accounts/accounts.repo.js';
import type { AuditActor, AuditService } from '../../audit/audit.service.js';
import type { FlowDeps, RequestMeta } from '../../auth/flows/deps.js';
import { completeSignIn } from '../../auth/flows/sign-in.js';
import { CODE_DEFAULTS } from '../../codes/defaults.js';
import { constantTimeEqual, randomString } from '../../platform/crypto.js';
import { ApiError, fail } from '../../platform/errors.js';
import type { Principal } from '../../perm/perm.service.js';
import type { StoredOAuth } from '../../realms/realm-settings.backend.js';
import { UPSTREAM_DEFAULTS } from './defaults.js';
import type { FederatedIdentityRepo } from './federated-identities.repo.js';
import { linkedAccount } from './link.js';
import { isKeySelectionError, oidc, scopeOf, upstreamError, type UpstreamClient } from './upstream-client.js';

const TX = 'upstream-tx';
const TICKET = 'upstream-ticket';

/** What the transaction cookie carries (sealed with the master key, so neither read nor forged). */
interface Transaction {
  realmId: string;
  state: string;
  nonce: string;
  verifier: string;
  exp: number;
  /** the OAuth challenge of our provider the sign-in started from, and the console's `redirect` */
  challenge?: string | undefined;
  redirect?: string | undefined;
}

export interface UpstreamDeps extends FlowDeps {
  identities: FederatedIdentityRepo;
  client: UpstreamClient;
  audit: Pick<AuditService, 'record'>;
  /**
   * A-40, as for every other administrative action on a person (directory/person-admin.service.ts
   * assertNotWider): an account holding rights the administrator lacks is not theirs to change.
   */
  assertNotWider: (call: UnlinkCall, account: Pick<Account, 'id' | 'realm_id'>) => Promise<void>;
}

/** The administrator removing a link, as the route knows them: for the rights check and the audit trail. */
export interface UnlinkCall {
  principal: Principal;
  actor: AuditActor | null;
  request: { ip: string; userAgent: string };
}

export interface Return {
  challenge?: string | undefined;
  redirect?: string | undefined;
}

export function createUpstreamService(d: UpstreamDeps) {
  const txKey = (realmId: string, state: string) => ({ realmId, purpose: TX, targetHash: d.secrets.hash('upstream-tx-key', state) });
  const ticketKey = (realmId: string, secret: string) => ({ realmId, purpose: TICKET, targetHash: d.secrets.hash('upstream-ticket-key', secret) });

  /** The realm's OAuth group when OpenID sign-in is on: 1004 for no realm, 1014 when off. */
  async function upstreamOf(realmId: string): Promise<StoredOAuth> {
    const o = (await d.policy.settingsOf(realmId)).oauth;
    if (!o?.isOIDC) throw fail('METHOD_DISABLED', { method: 'upstream' });
    return o;
  }

  /** OIDC Core §3.1.2.1 redirect_uri: ours, unless the realm overwrites it (a proxy in front). */
  const redirectUriOf = (realmId: string, o: StoredOAuth) =>
    o.redirectURIOverwrite && o.redirectURI ? o.redirectURI : `${d.publicUrl}/api/federation/${encodeURIComponent(realmId)}/oidc/callback`;

  /** The button's face: null when the realm has no upstream sign-in. */
  async function button(realmId: string): Promise<{ name: string; icon: string } | null> {
    const o = (await d.policy.settingsOf(realmId)).oauth;
    if (!o?.isOIDC) return null;
    return { name: o.displayName || new URL(o.oidcWellknowEndpoint).hostname, icon: o.iconUrl ?? '' };
  }

  async function start(realmId: string, back: Return): Promise<{ location: string; cookie: string }> {
    const o = await upstreamOf(realmId);
    const cfg = await d.client.configOf(realmId, o);
    const verifier = oidc.randomPKCECodeVerifier();
    const tx: Transaction = {
      realmId,
      state: oidc.randomState(),
      nonce: oidc.randomNonce(),
      verifier,
      exp: d.clock.now() + UPSTREAM_DEFAULTS.transactionTtlMs,
      challenge: back.challenge,
      redirect: back.redirect,
    };
    const now = d.clock.now();
    await d.store.putCode(
      txKey(realmId, tx.state),
      { codeHash: d.secrets.hash(TX, tx.state), serialNo: TX, subject: '', createdAt: now, expiresAt: tx.exp },
      0,
    );
    const url = oidc.buildAuthorizationUrl(cfg, {
      redirect_uri: redirectUriOf(realmId, o),
      scope: scopeOf(o),
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state: tx.state,
      nonce: tx.nonce,
    });
    return { location: url.href, cookie: d.secrets.encrypt(JSON.stringify(tx)) };
  }

  function openTransaction(realmId: string, sealed: string | undefined): Transaction {
    if (!sealed) throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: 'no transaction' });
    let tx: Transaction;
    try {
      tx = JSON.parse(d.secrets.decrypt(sealed)) as Transaction;
    } catch {
      throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: 'no transaction' });
    }
    if (tx.realmId !== realmId || tx.exp <= d.clock.now()) throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: 'transaction expired' });
    return tx;
  }

  /** Where the console goes back to, whichever way the callback ends. */
  function consoleUrl(realmId: string, back: Return, extra: Record<string, string>): string {
    const q = new URLSearchParams({ realm_id: realmId, ...extra });
    if (back.challenge) q.set('challenge', back.challenge);
    if (back.redirect) q.set('redirect', back.redirect);
    return `/user/loginSSO?${q.toString()}`;
  }

  /**
   * The upstream's answer (the query of the callback). Always answers a console URL: with a
   * hand-over ticket, or with `upstream_error` (a catalogue code) and the reason logged.
   */
  async function callback(realmId: string, query: URLSearchParams, sealed: string | undefined): Promise<{ location: string; error?: ApiError }> {
    let back: Return = {};
    try {
      const tx = openTransaction(realmId, sealed);
      back = { challenge: tx.challenge, redirect: tx.redirect };
      // The state must be this browser's (RFC 6749 §10.12), and the transaction unspent.
      if (!constantTimeEqual(query.get('state') ?? '', tx.state)) throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: 'state' });
      const spent = await d.store.checkCode(txKey(realmId, tx.state), {
        codeHash: d.secrets.hash(TX, tx.state),
        serialNo: TX,
        now: d.clock.now(),
        maxAttempts: 1,
      });
      if (spent.status !== 'ok') throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: 'transaction spent' });
      if (query.has('error')) throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: `upstream: ${query.get('error')?.slice(0, 64)}` });
      const o = await upstreamOf(realmId);
      const cfg = await d.client.configOf(realmId, o);
      // openid-client takes the redirect_uri of the token request from this URL (RFC 6749 §4.1.3)
      const current = new URL(redirectUriOf(realmId, o));
      for (const [k, v] of query) current.searchParams.append(k, v);
      let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
      try {
        tokens = await oidc.authorizationCodeGrant(cfg, current, {
          pkceCodeVerifier: tx.verifier,
          expectedState: tx.state,
          expectedNonce: tx.nonce,
          idTokenExpected: true,
        });
      } catch (err) {
        // a key the cached JWKS does not have: the upstream rotated; the next try fetches it
        if (isKeySelectionError(err)) d.client.forget(realmId);
        throw upstreamError(err, 'token');
      }
      const claims = tokens.claims();
      if (!claims) throw fail('UPSTREAM_SIGN_IN_FAILED', { reason: 'no id token' });
      const { account } = await linkedAccount(d, realmId, claims, o.linkVerifiedEmail === true);
      const secret = randomString(40);
      const now = d.clock.now();
      await d.store.putCode(
        ticketKey(realmId, secret),
        { codeHash: d.secrets.hash(TICKET, secret), serialNo: TICKET, subject: account.id, createdAt: now, expiresAt: now + UPSTREAM_DEFAULTS.handoverTtlMs },
        0,
      );
      return { location: consoleUrl(realmId, back, { upstream_ticket: `${realmId}.${secret}` }) };
    } catch (err) {
      const error = err instanceof ApiError ? err : fail('UPSTREAM_UNAVAILABLE', { reason: 'unexpected' });
      return { location: consoleUrl(realmId, back, { upstream_error: String(error.def.code) }), error };
    }
  }

  /**
   * The hand-over ticket for a session: once, within its 2 minutes. An account with a
   * one-time password asks for it here, the way code sign-in does (auth/flows/sign-in.ts):
   * the ticket is checked without being spent, so 1503 (empty) costs nothing and the page
   * sends the ticket again with the OTP; each wrong OTP counts on the account's lock and
   * costs the ticket CODE_DEFAULTS.triesPerWrongSecondFactor of its tries (the third spends
   * it); a right one spends the ticket before the session is issued.
   */
  async function exchange(ticket: string, otp: string | undefined, meta: RequestMeta) {
    const dot = ticket.lastIndexOf('.');
    const realmId = ticket.slice(0, dot);
    const secret = ticket.slice(dot + 1);
    if (dot < 1 || !/^[A-Za-z0-9]{40}$/.test(secret) || realmId.length > 64) throw fail('CODE_INVALID');
    const key = ticketKey(realmId, secret);
    const check = (keep: boolean) =>
      d.store.checkCode(key, {
        codeHash: d.secrets.hash(TICKET, secret),
        serialNo: TICKET,
        now: d.clock.now(),
        maxAttempts: CODE_DEFAULTS.maxAttempts,
        keep,
      });
    const res = await check(true);
    if (res.status !== 'ok') throw fail('CODE_INVALID');
    const account = await d.accounts.findAccountById(realmId, res.subject);
    if (!account) throw fail('CODE_INVALID');
    try {
      // the upstream proved the person; an account that also has a one-time password still gives it
      return await completeSignIn(d, account, {
        ...meta,
        method: 'upstream',
        otp,
        onWrongSecondFactor: () => d.store.spendTries(key, TICKET, CODE_DEFAULTS.triesPerWrongSecondFactor),
        // single use: of two parallel exchanges only one gets past here
        afterSecondFactor: async () => {
          if ((await check(false)).status !== 'ok') throw fail('CODE_INVALID');
        },
      });
    } catch (err) {
      await d.signIns?.failed('upstream', realmId, { account }, meta, err);
      // The OTP step names the account as the password form's does; the ticket's holder was
      // signed in as it by the upstream, so this tells them nothing new.
      if (err instanceof ApiError && err.def.code === ErrorCodes.OTP_EMPTY.code) throw new ApiError(err.def, { username: account.username }, err.headers);
      throw err;
    }
  }

  /** Administrators: the links of a person account (1207 when it is not one of the realm). */
  async function personOf(realmId: string, accountId: string) {
    const account = await d.accounts.findAccountById(realmId, accountId);
    if (!account || account.kind !== 'person') throw fail('USER_NOT_FOUND');
    return account;
  }

  async function links(realmId: string, accountId: string): Promise<PersonFederatedLink[]> {
    await personOf(realmId, accountId);
    const rows = await d.identities.listForAccount(realmId, accountId);
    return rows.map((r) => ({ id: r.id, issuer: r.issuer, subject: r.subject, email: r.email, linkedAt: r.linked_at }));
  }

  /**
   * The link goes and its audit event is written in one transaction: no removal without its
   * record. The event names the issuer only (no subject, no token): enough to tell which
   * provider's sign-in the account lost.
   */
  async function unlink(realmId: string, accountId: string, linkId: string, call: UnlinkCall): Promise<void> {
    const account = await personOf(realmId, accountId);
    await d.assertNotWider(call, account);
    await d.transact(async (trx) => {
      const link = (await d.identities.listForAccount(realmId, accountId, trx)).find((r) => r.id === linkId);
      if (!link || !(await d.identities.deleteIdentity(realmId, accountId, linkId, trx))) throw fail('NOT_FOUND');
      await d.audit.record(
        {
          realmId,
          actor: call.actor,
          request: call.request,
          action: 'account.federated_unlink',
          target: { type: 'account', id: account.id, name: account.username },
          result: 'ok',
          detail: { issuer: link.issuer },
        },
        trx,
      );
    });
  }

  return { button, start, callback, exchange, links, unlink };
}

export type UpstreamService = ReturnType<typeof createUpstreamService>;
