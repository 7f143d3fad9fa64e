/**
 * The device authorization grant at the token endpoint (RFC 8628 §3.4–3.5): the device polls
 * with its device_code until the user decided on the console's /device page.
 *
 * 1. read the code: unknown, of another realm or another client → invalid_grant (RFC 6749
 *    §5.2: "issued to another client"); already redeemed → invalid_grant; expired →
 *    expired_token;
 * 2. the poll gate (one conditional UPDATE): a poll sooner than the code's interval after the
 *    previous one → slow_down, and the interval grows by 5 s for this and every later poll
 *    (§3.5); the device is told the new interval in the error description;
 * 3. pending → authorization_pending; denied → access_denied;
 * 4. approved: the user must still exist and be enabled; mint (signed before the
 *    transaction), then in ONE transaction redeem the code (approved → used, a conditional
 *    UPDATE: of any number of parallel polls exactly one wins) and save the family. The family
 *    carries the auth_time of the sign-in that approved it.
 */
import { DEVICE_SLOW_DOWN_STEP_SEC } from '../defaults.js';
import { InvalidGrant, InvalidRequest, OAuthError } from '../errors.js';
import type { GrantDeps } from './deps.js';
import { DEVICE_CODE_GRANT, type GrantHandler } from './types.js';

/** Internal: a parallel poll redeemed the approval between our read and our write. */
class NotRedeemable extends Error {}

export function deviceCodeGrant(d: GrantDeps): GrantHandler {
  return async function deviceCode(ctx) {
    const { client, params, now } = ctx;
    const value = params.device_code;
    if (!value) throw new InvalidRequest('device_code is required');
    if (value.length > 256) throw new InvalidGrant('unknown device code');
    const hash = d.secrets.hash('oauth-device', value);

    const row = await d.deviceCodes.findByDeviceCode(hash);
    if (!row || row.realm_id !== ctx.realmId || row.client_ref !== client.id) throw new InvalidGrant('unknown device code');
    if (row.status === 'used') throw new InvalidGrant('the device code was already used');
    if (Number(row.expires_at) <= now) throw new OAuthError('expired_token', 'the device code has expired; start again');

    const polled = await d.deviceCodes.admitPoll(hash, now);
    if (!polled) {
      const interval = await d.deviceCodes.slowDown(hash, DEVICE_SLOW_DOWN_STEP_SEC, now);
      throw new OAuthError('slow_down', `polling too fast: wait ${interval ?? DEVICE_SLOW_DOWN_STEP_SEC} s between requests`);
    }
    if (polled.status === 'pending') throw new OAuthError('authorization_pending', 'the user has not decided yet');
    if (polled.status === 'denied') throw new OAuthError('access_denied', 'the user denied the request');
    if (polled.status !== 'approved' || !polled.account_id) throw new InvalidGrant('the device code was already used');

    const account = await d.accounts.findAccountById(polled.realm_id, polled.account_id);
    if (!account || account.disabled) throw new InvalidGrant('the user who approved cannot sign in');
    const issued = await d.mint.issue({
      client,
      grantType: DEVICE_CODE_GRANT,
      scope: polled.scope,
      subject: { account, authTime: Number(polled.auth_time ?? now) },
      now,
    });
    try {
      await d.transact(async (trx) => {
        if (!(await d.deviceCodes.redeem(hash, now, trx))) throw new NotRedeemable();
        await d.mint.save(issued, trx);
      });
    } catch (err) {
      // another poll won the approval between our read and our write: its answer is the one
      if (err instanceof NotRedeemable) throw new InvalidGrant('the device code was already used');
      throw err;
    }
    ctx.trace.account = { id: account.id, name: account.username };
    ctx.trace.familyId = issued.familyId;
    return issued.response;
  };
}
