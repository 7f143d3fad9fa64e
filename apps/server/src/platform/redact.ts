/**
 * What never reaches a log line (issue 8; SECURITY.md A-33 "never logged", ASVS 16.2.5):
 * codes, tokens, passwords and secrets, wherever they travel — query strings of public pages
 * (/reset?code=, /user/register-result?code=, /loginByFToken?ftoken=), JSON bodies, headers,
 * error messages. One list, used by the logger (platform/logger.ts) for every line.
 */

/** Parameter and field names whose values are secret (compared case-insensitively, `_`/`-` ignored). */
export const SECRET_NAMES = [
  'code',
  'codes',
  'ftoken',
  'token',
  'accesstoken',
  'refreshtoken',
  'idtoken',
  'idtokenhint',
  'codeverifier',
  // the OpenID provider (issue 12): RFC 8628 device and user codes, RFC 7523 client assertions
  'devicecode',
  'usercode',
  'clientassertion',
  'password',
  'newpassword',
  'oldpassword',
  'otp',
  'firstcode',
  'secondcode',
  'recoverycode',
  'recoverycodes',
  'captcha',
  'otpticket',
  'ticket',
  'secret',
  'clientsecret',
  'appsercet',
  'appsecret',
  'appcloudsecret',
  'authorization',
  'cookie',
  'setcookie',
] as const;

const SECRET_SET = new Set<string>(SECRET_NAMES);
const squash = (name: string) => name.toLowerCase().replace(/[-_]/g, '');

export const REDACTED = '[redacted]';

export function isSecretName(name: string): boolean {
  const n = squash(name);
  // Any *ticket too: a ticket is a bearer credential (issue 14's upstream_ticket stands in for a session).
  return SECRET_SET.has(n) || n.endsWith('password') || n.endsWith('secret') || n.endsWith('token') || n.endsWith('ticket');
}

// name=value pairs in a query string or form body, wherever they stand in a text
const PAIR = /([?&;]|^|\s)([A-Za-z_][\w.-]{0,40})=([^&#\s"']*)/g;

/** A value that is itself an encoded URL or query (`redirect=%2Fdevice%3Fuser_code%3D…`), redacted inside; else unchanged. */
function redactEncoded(value: string, depth: number): string {
  if (depth > 2 || !/%3D/i.test(value)) return value;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return value;
  }
  const inner = redactPairs(decoded, depth + 1);
  return inner === decoded ? value : encodeURIComponent(inner);
}

function redactPairs(text: string, depth: number): string {
  return text.replace(PAIR, (whole, lead: string, name: string, value: string) =>
    isSecretName(name) ? `${lead}${name}=${REDACTED}` : `${lead}${name}=${redactEncoded(value, depth)}`,
  );
}

/** A URL or any text with `name=value` pairs, secret values replaced — also inside encoded URLs that values carry. */
export function redactText(text: string): string {
  return redactPairs(text, 0);
}

const isPlain = (v: object) => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/**
 * A copy of a plain object tree with secret-named fields and secret pairs in strings
 * redacted. Other objects (a request, a reply, an error) are left to the logger's serializers.
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, depth + 1));
  if (!isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = isSecretName(k) ? REDACTED : redactValue(v, depth + 1);
  return out;
}
