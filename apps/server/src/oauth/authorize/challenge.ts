/**
 * The pending sign-in, carried by the browser instead of stored: a sealed (AES-256-GCM under
 * the master key, platform/crypto.ts), expiring value holding the validated request. Any
 * server instance can resume it and nobody can make or alter one. Why not a table: a pending
 * request is not a credential (using one needs the user's own signed-in session), it is
 * abandoned more often than finished, and a sealed value needs neither writes nor sweeping.
 *
 * Two stages: 'login' (the request, before we know the user) and 'consent' (the request plus
 * the user who signed in and the SSO session made for them); and the sign-out confirmation.
 */
import type { Secrets } from '../../platform/crypto.js';
import type { AuthzRequest, AuthzSubject } from './request.js';

/** How long a sign-in may take (a person reading, typing, maybe resetting a password). */
export const CHALLENGE_TTL_MS = 10 * 60 * 1000;

export type Challenge =
  | { typ: 'oauth-login'; req: AuthzRequest; exp: number }
  | { typ: 'oauth-consent'; req: AuthzRequest; subject: AuthzSubject; exp: number }
  /** the sign-out confirmation form's token (AS-27): bound to the SSO session it was shown to */
  | { typ: 'oauth-logout'; realmId: string; sid: string | null; redirect?: string | undefined; state?: string | undefined; exp: number };

export function createChallenges(secrets: Secrets) {
  return {
    seal(c: Challenge): string {
      return secrets.encrypt(JSON.stringify(c));
    },
    /** The challenge, or undefined when it is not ours, damaged, of another kind or expired. */
    open<T extends Challenge['typ']>(sealed: string, typ: T | readonly T[], now: number): Extract<Challenge, { typ: T }> | undefined {
      let c: Challenge;
      try {
        c = JSON.parse(secrets.decrypt(sealed)) as Challenge;
      } catch {
        return undefined;
      }
      const kinds: readonly string[] = Array.isArray(typ) ? typ : [typ];
      if (!c || typeof c !== 'object' || !kinds.includes(c.typ) || typeof c.exp !== 'number' || c.exp <= now) return undefined;
      return c as Extract<Challenge, { typ: T }>;
    },
  };
}

export type Challenges = ReturnType<typeof createChallenges>;
