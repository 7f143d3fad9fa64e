/**
 * The backend group of each backend type and the OAuth config group (SPEC §3, issue 11):
 * merging a PATCH into what is stored, with the secrets (appSercet, appCloudSecret,
 * clientSecret) sealed and write-only, and the answers that never carry them.
 *
 * As with the mail password (realm-settings.groups.ts), an omitted secret is kept only while
 * the group still talks to the same place: a kept backend secret must not follow a changed
 * host list or endpoint to a server of the editor's choosing.
 */
import type { z } from 'zod';
import type { RealmBackendView, RealmOAuthView, realmBackendInput, realmOAuthInput } from '@umbo/contracts';
import { fail } from '../platform/errors.js';

type BackendInput = z.output<typeof realmBackendInput>;
type OAuthInput = z.output<typeof realmOAuthInput>;
type Seal = (plain: string) => string;

/** As stored: the input with each secret sealed (or absent). */
export type StoredBackend =
  | (Omit<Extract<BackendInput, { type: 'ecogloble' }>, 'appSercet'> & { appSercet?: string })
  | (Omit<Extract<BackendInput, { type: 'default' }>, 'appSercet'> & { appSercet?: string })
  | Extract<BackendInput, { type: 'bigdata' }>
  | (Omit<Extract<BackendInput, { type: 'aliliving' }>, 'appCloudSecret'> & { appCloudSecret?: string });
export type StoredOAuth = Omit<OAuthInput, 'clientSecret'> & { clientSecret?: string };
/** An IT-interface backend (issue 14): its persons sign in, register and recover through it. */
export type ItBackend = Extract<StoredBackend, { type: 'ecogloble' | 'default' }>;

/** The realm's IT-interface backend, when it has one and backend_type names it. */
export function itBackendOf(settings: { backend?: StoredBackend; backend_type?: string }): ItBackend | undefined {
  const b = settings.backend;
  if (!b || (b.type !== 'ecogloble' && b.type !== 'default') || b.type !== settings.backend_type) return undefined;
  return b;
}

const SECRET_AGAIN = 'the destination changed: send the secret again';

/**
 * One secret: omitted keeps the stored one while the destination is the same; '' clears it
 * (refused where required); anything else is sealed. `required` secrets must end up present.
 */
function secretOf(given: string | undefined, stored: string | undefined, same: boolean, field: string, required: boolean, seal: Seal): string | undefined {
  if (given === undefined) {
    if (stored && same) return stored;
    throw fail('INVALID_PARAMETER', { field, reason: stored ? SECRET_AGAIN : 'validation.required' });
  }
  if (given === '') {
    if (required) throw fail('INVALID_PARAMETER', { field, reason: 'validation.required' });
    return undefined;
  }
  return seal(given);
}

/** Where an IT-interface backend sends its secret: scheme, port and every region's host. */
const itDestination = (b: { hasHttps: boolean; port: number; regions: { host: string }[] }) =>
  JSON.stringify([b.hasHttps, b.port, b.regions.map((r) => r.host.toLowerCase()).sort()]);

/** The destination a group's secret is bound to (also used to bind exported secrets). */
export function backendDestination(b: StoredBackend | BackendInput): string {
  switch (b.type) {
    case 'ecogloble':
    case 'default':
      return `${b.type}:${itDestination(b)}`;
    case 'aliliving':
      return `aliliving:${b.appCloudKey}`;
    case 'bigdata':
      return `bigdata:${b.host}`;
  }
}

export const oauthDestination = (o: Pick<StoredOAuth, 'tokenEndpoint' | 'oidcWellknowEndpoint'>) => `oauth:${o.tokenEndpoint} ${o.oidcWellknowEndpoint}`;

export function mergeBackend(stored: StoredBackend | undefined, input: BackendInput, seal: Seal): StoredBackend {
  const same = !!stored && stored.type === input.type && backendDestination(stored) === backendDestination(input);
  switch (input.type) {
    case 'ecogloble':
    case 'default': {
      const prev = stored && (stored.type === 'ecogloble' || stored.type === 'default') ? stored.appSercet : undefined;
      const appSercet = secretOf(input.appSercet, prev, same, 'backend.appSercet', true, seal);
      return { ...input, appSercet } as StoredBackend;
    }
    case 'aliliving': {
      const prev = stored?.type === 'aliliving' ? stored.appCloudSecret : undefined;
      const appCloudSecret = secretOf(input.appCloudSecret, prev, same, 'backend.appCloudSecret', true, seal);
      return { ...input, appCloudSecret };
    }
    case 'bigdata':
      return { ...input };
  }
}

export function mergeOAuth(stored: StoredOAuth | undefined, input: OAuthInput, seal: Seal): StoredOAuth {
  const same = !!stored && oauthDestination(stored) === oauthDestination(input);
  // A confidential client needs its secret; a public one (PKCE only) may have none.
  const clientSecret =
    input.clientSecret === undefined && !stored?.clientSecret
      ? undefined
      : secretOf(input.clientSecret, stored?.clientSecret, same, 'oauth.clientSecret', false, seal);
  const { clientSecret: _given, ...rest } = input;
  return { ...rest, ...(clientSecret ? { clientSecret } : {}) };
}

export function backendView(b: StoredBackend | undefined): RealmBackendView | null {
  if (!b) return null;
  switch (b.type) {
    case 'ecogloble':
    case 'default':
      return { ...b, appSercet: '', hasAppSercet: !!b.appSercet } as RealmBackendView;
    case 'aliliving':
      return { ...b, appCloudSecret: '', hasAppCloudSecret: !!b.appCloudSecret };
    case 'bigdata':
      return { ...b };
  }
}

export function oauthView(o: StoredOAuth | undefined): RealmOAuthView | null {
  if (!o) return null;
  return { ...o, clientSecret: '', hasClientSecret: !!o.clientSecret };
}

/** The sealed secret fields of a stored record, as paths: what export and import carry specially. */
export const SECRET_PATHS = [
  'email.password',
  'backend.appSercet',
  'backend.appCloudSecret',
  'oauth.clientSecret',
  'sms.secret',
  'sms.accessKeySecret',
  'sms.authToken',
] as const;
