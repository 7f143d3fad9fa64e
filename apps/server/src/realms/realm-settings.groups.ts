/**
 * The realm's mail and SMS groups: merging a PATCH into the stored group with write-only,
 * sealed secrets, and the answer that never carries them (contracts/realm-settings.ts).
 *
 * The notify code opens exactly these stored values (notify.service.ts: Secrets.decrypt of
 * email.password; sms/index.ts: `open` of secret, accessKeySecret, authToken).
 */
import type { z } from 'zod';
import type { realmEmailInput, realmSmsInput, RealmSettingsView } from '@umbo/contracts';
import { fail } from '../platform/errors.js';
import type { RealmMailConfig, SmsProviderConfig } from '../notify/types.js';

type EmailInput = z.output<typeof realmEmailInput>;
type SmsInput = z.output<typeof realmSmsInput>;
type Seal = (plain: string) => string;

const SECRET_AGAIN = 'the destination changed: send the secret again, or an empty string for none';

/**
 * One secret field. Omitted keeps the stored value — but only while the group still sends
 * to the same place: a kept mail password or API token must not follow a changed host or
 * endpoint, or anyone allowed to edit the realm could have it delivered to their own server.
 * '' clears (refused where the provider cannot work without it).
 */
function secretOf(o: {
  given: string | undefined;
  stored: string | undefined;
  sameDestination: boolean;
  field: string;
  required: boolean;
  seal: Seal;
}): string | undefined {
  if (o.given === undefined) {
    if (o.stored && o.sameDestination) return o.stored;
    if (o.stored || o.required) throw fail('INVALID_PARAMETER', { field: o.field, reason: o.stored ? SECRET_AGAIN : 'validation.required' });
    return undefined;
  }
  if (o.given === '') {
    if (o.required) throw fail('INVALID_PARAMETER', { field: o.field, reason: 'validation.required' });
    return undefined;
  }
  return o.seal(o.given);
}

export function mergeEmail(stored: RealmMailConfig | undefined, input: EmailInput, seal: Seal): RealmMailConfig {
  const user = input.user ?? '';
  const same = !!stored && stored.host === input.host && stored.port === input.port && stored.secure === input.secure && (stored.user ?? '') === user;
  // Without a user name nodemailer sends no AUTH: a password would be kept for nothing.
  if (!user) {
    if (input.password) throw fail('INVALID_PARAMETER', { field: 'email.user', reason: 'validation.required' });
    return { host: input.host, port: input.port, secure: input.secure, from: input.from };
  }
  const password = secretOf({ given: input.password, stored: stored?.password, sameDestination: same, field: 'email.password', required: false, seal });
  return { host: input.host, port: input.port, secure: input.secure, user, ...(password ? { password } : {}), from: input.from };
}

const opt = <K extends string>(key: K, v: string | undefined) => (v ? ({ [key]: v } as Record<K, string>) : {});

export function mergeSms(stored: SmsProviderConfig | undefined, input: SmsInput, seal: Seal): SmsProviderConfig {
  switch (input.provider) {
    case 'outbox':
      return { provider: 'outbox' };
    case 'webhook': {
      const prev = stored?.provider === 'webhook' ? stored : undefined;
      const secret = secretOf({
        given: input.secret,
        stored: prev?.secret,
        sameDestination: prev?.url === input.url,
        field: 'sms.secret',
        required: false,
        seal,
      });
      return { provider: 'webhook', url: input.url, ...opt('secret', secret) };
    }
    case 'aliyun': {
      const prev = stored?.provider === 'aliyun' ? stored : undefined;
      const same = prev?.accessKeyId === input.accessKeyId && (prev?.endpoint ?? '') === (input.endpoint ?? '');
      const accessKeySecret = secretOf({
        given: input.accessKeySecret,
        stored: prev?.accessKeySecret,
        sameDestination: same,
        field: 'sms.accessKeySecret',
        required: true,
        seal,
      })!;
      return {
        provider: 'aliyun',
        accessKeyId: input.accessKeyId,
        accessKeySecret,
        signName: input.signName,
        templateCode: input.templateCode,
        ...opt('regionId', input.regionId),
        ...opt('endpoint', input.endpoint),
      };
    }
    case 'twilio': {
      const prev = stored?.provider === 'twilio' ? stored : undefined;
      const same = prev?.accountSid === input.accountSid && (prev?.endpoint ?? '') === (input.endpoint ?? '');
      const authToken = secretOf({ given: input.authToken, stored: prev?.authToken, sameDestination: same, field: 'sms.authToken', required: true, seal })!;
      return {
        provider: 'twilio',
        accountSid: input.accountSid,
        authToken,
        ...opt('from', input.from),
        ...opt('messagingServiceSid', input.messagingServiceSid),
        ...opt('endpoint', input.endpoint),
      };
    }
  }
}

/** The answer's mail group: the password as '' with hasPassword. */
export function emailView(e: RealmMailConfig | undefined): RealmSettingsView['email'] {
  if (!e?.host) return null;
  return { host: e.host, port: e.port, secure: !!e.secure, user: e.user ?? '', password: '', hasPassword: !!e.password, from: e.from ?? '' };
}

/** The answer's SMS group: each secret as '' with has<Secret>. */
export function smsView(s: SmsProviderConfig | undefined): RealmSettingsView['sms'] {
  switch (s?.provider) {
    case 'outbox':
      return { provider: 'outbox' };
    case 'webhook':
      return { provider: 'webhook', url: s.url, secret: '', hasSecret: !!s.secret };
    case 'aliyun':
      return {
        provider: 'aliyun',
        accessKeyId: s.accessKeyId,
        accessKeySecret: '',
        hasAccessKeySecret: !!s.accessKeySecret,
        signName: s.signName,
        templateCode: s.templateCode,
        ...opt('regionId', s.regionId),
        ...opt('endpoint', s.endpoint),
      };
    case 'twilio':
      return {
        provider: 'twilio',
        accountSid: s.accountSid,
        authToken: '',
        hasAuthToken: !!s.authToken,
        ...opt('from', s.from),
        ...opt('messagingServiceSid', s.messagingServiceSid),
        ...opt('endpoint', s.endpoint),
      };
    default:
      return null;
  }
}
