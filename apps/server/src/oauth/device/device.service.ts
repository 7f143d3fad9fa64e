/**
 * The device authorization grant (RFC 8628, issue 12): a device asks for a pair of codes
 * (§3.1–3.2), the user approves or denies the user code on the console's /device page after
 * signing in (§3.3), and the device polls the token endpoint (§3.4–3.5, oauth/grants/
 * device-code.ts) until then. This file: the codes and the user's decision.
 *
 * - device_code: 43 random characters (≈ 256 bits, AS-12); user_code: 8 of 20 consonants
 *   (§6.1). Both are stored as keyed hashes only.
 * - Wrong user codes count against the caller's account and address through the sign-in
 *   throttle (§5.1: the user code is short, so guessing must be slow); a right one does not.
 * - A user code of another realm reads exactly like an unknown one (no cross-realm leak).
 * - Every change of state is one conditional UPDATE in the repository: one decision per code
 *   (here), one token answer per approval (the grant), whatever runs in parallel.
 */
import { formatUserCode, normaliseUserCode, USER_CODE_ALPHABET, USER_CODE_LENGTH, type DeviceRequestInfo } from '@umbo/contracts';
import type { AuditActor, AuditService } from '../../audit/audit.service.js';
import type { ThrottleService } from '../../auth/throttle/throttle.service.js';
import type { Clock } from '../../platform/clock.js';
import { randomString, type Secrets } from '../../platform/crypto.js';
import { isUniqueViolation, type Transact } from '../../platform/db.js';
import { MASTER_REALM } from '../../perm/perm.service.js';
import { fail } from '../../platform/errors.js';
import { DEVICE_CODE_TTL_SEC, DEVICE_POLL_INTERVAL_SEC } from '../defaults.js';
import type { DeviceCode, DeviceCodeRepo } from '../store/device-codes.repo.js';

/** What the service needs of a client (H-clients' OAuthClient has these and more). */
export interface DeviceClient {
  id: string;
  realmId: string;
  clientId: string;
  name: string;
  disabled: boolean;
}

/** The signed-in user deciding on the /device page. */
export interface DeviceCaller {
  accountId: string;
  realmId: string;
  /** when the console session signed in: the grant's auth_time (OIDC Core §2) */
  authTime: number;
  actor: AuditActor | null;
  request: { ip: string; userAgent: string };
}

/** The device authorization response (RFC 8628 §3.2). */
export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

const SEC = 1000;
/** The throttle counts wrong user codes under this name per account (never a user name: ':' is not allowed in one). */
const throttleName = (accountId: string) => `oauth-device:${accountId}`;

export function createDeviceService(deps: {
  repo: DeviceCodeRepo;
  findClient: (clientRef: string) => Promise<DeviceClient | undefined>;
  realmName: (realmId: string) => Promise<string | undefined>;
  throttle: ThrottleService;
  audit: AuditService;
  secrets: Secrets;
  clock: Clock;
  transact: Transact;
  publicUrl: string;
}) {
  const { repo, secrets, clock } = deps;
  const hashDevice = (v: string) => secrets.hash('oauth-device', v);
  const hashUser = (normalised: string) => secrets.hash('oauth-user-code', normalised);

  /** §3.1–3.2: a new pair of codes for an authenticated client and an already checked scope. */
  async function start(client: DeviceClient, scope: string): Promise<DeviceAuthorizationResponse> {
    const now = clock.now();
    const deviceCode = randomString(43);
    // A user code taken by a live request (1 in 2.56·10^10 per pair) is drawn again.
    for (let attempt = 0; ; attempt++) {
      const userCode = randomString(USER_CODE_LENGTH, USER_CODE_ALPHABET);
      try {
        await repo.insert({
          device_code_hash: hashDevice(deviceCode),
          user_code_hash: hashUser(userCode),
          realm_id: client.realmId,
          client_ref: client.id,
          scope,
          status: 'pending',
          account_id: null,
          auth_time: null,
          interval_sec: DEVICE_POLL_INTERVAL_SEC,
          last_polled_at: null,
          created_at: now,
          expires_at: now + DEVICE_CODE_TTL_SEC * SEC,
        });
      } catch (err) {
        if (isUniqueViolation(err) && attempt < 3) continue;
        throw err;
      }
      const shown = formatUserCode(userCode);
      // The console signs in to master unless told otherwise: a device of another realm names
      // its realm, which the sign-in page the user is sent to takes over (web safe-redirect.ts).
      const verificationUri = `${deps.publicUrl}/device${client.realmId === MASTER_REALM ? '' : `?realm_id=${encodeURIComponent(client.realmId)}`}`;
      return {
        device_code: deviceCode,
        user_code: shown,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}${verificationUri.includes('?') ? '&' : '?'}user_code=${shown}`,
        expires_in: DEVICE_CODE_TTL_SEC,
        interval: DEVICE_POLL_INTERVAL_SEC,
      };
    }
  }

  /**
   * The pending request behind a typed user code, for the caller's realm, with the guess
   * counted (§5.1). Unknown, malformed and other realms' codes: 1090.
   */
  async function findForCaller(caller: DeviceCaller, typed: string): Promise<{ code: DeviceCode; client: DeviceClient; userCode: string }> {
    const userCode = normaliseUserCode(typed);
    // Not even the shape of a user code: no guess at any code, so nothing to count.
    if (!userCode) throw fail('DEVICE_CODE_UNKNOWN');
    const attempt = await deps.throttle.begin(
      { realmId: caller.realmId, username: throttleName(caller.accountId), ip: caller.request.ip },
      'DEVICE_CODE_UNKNOWN',
    );
    const code = await repo.findByUserCode(hashUser(userCode));
    if (!code || code.realm_id !== caller.realmId) throw attempt.failed();
    // A right code is not a guess: its attempt goes back, and failures before it stay counted
    // (a code of one's own must not wipe the record of guesses at others').
    await attempt.notAGuess();
    if (code.expires_at <= clock.now()) throw fail('DEVICE_CODE_EXPIRED');
    if (code.status !== 'pending') throw fail('DEVICE_CODE_DECIDED');
    const client = await deps.findClient(code.client_ref);
    if (!client) throw fail('DEVICE_CODE_UNKNOWN');
    if (client.disabled) throw fail('DEVICE_CLIENT_DISABLED');
    return { code, client, userCode };
  }

  /** GET /api/users/oauth/device: what the user is asked to approve. */
  async function lookup(caller: DeviceCaller, typed: string): Promise<DeviceRequestInfo> {
    const { code, client, userCode } = await findForCaller(caller, typed);
    return {
      userCode: formatUserCode(userCode),
      clientId: client.clientId,
      clientName: client.name,
      realmId: code.realm_id,
      realmName: (await deps.realmName(code.realm_id)) ?? code.realm_id,
      scopes: code.scope.split(' ').filter(Boolean),
      expiresAt: code.expires_at,
    };
  }

  /** POST /api/users/oauth/device: approve or deny, once (§3.3), with its audit event. */
  async function decide(caller: DeviceCaller, typed: string, approve: boolean): Promise<{ status: 'approved' | 'denied'; clientName: string }> {
    const { client, userCode } = await findForCaller(caller, typed);
    const status = approve ? 'approved' : 'denied';
    return deps.transact(async (trx) => {
      const decided = await repo.decide(
        hashUser(userCode),
        { status, accountId: caller.accountId, authTime: approve ? caller.authTime : null },
        clock.now(),
        trx,
      );
      // Decided, expired or swept between the lookup and now: as if looked up a moment later.
      if (!decided) throw fail('DEVICE_CODE_DECIDED');
      await deps.audit.record(
        {
          realmId: decided.realm_id,
          actor: caller.actor,
          action: `oauth.device.${status}`,
          target: { type: 'client', id: client.id, name: client.clientId },
          result: 'ok',
          request: caller.request,
          detail: { clientId: client.clientId, scope: decided.scope },
        },
        trx,
      );
      return { status, clientName: client.name };
    });
  }

  return { start, lookup, decide };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
