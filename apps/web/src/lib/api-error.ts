/**
 * What a failed call means for the user (SPEC §8), decided in one place. Pure: the caller
 * passes the translator, so the policy is unit-tested without a browser.
 */
import { ErrorCodes, errorByCode, type PermissionErrData } from '@umbo/contracts/errors';
import type { FailEnvelope } from '@umbo/contracts/envelope';

export type ApiErrorKind = 'envelope' | 'unauthorized' | 'forbidden' | 'http' | 'timeout' | 'network';

export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly status: number,
    readonly code?: number,
    /** Catalogue key from the server's `error` field, or the catalogue's own key for `code`. */
    readonly key?: string,
    /** True when the client policy has already shown a notification for it. */
    readonly notified = false,
    /** The envelope's errData, e.g. {field, reason} of a 1009. */
    readonly errData?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** The message said again in the current language (lib/feedback.ts LiveText), when known. */
  say?: () => string;
}

// The translator is typed loosely: keys here are built from server data at run time.
export type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A response fails when result is 'fail' or code is non-zero (SPEC §8). */
export function isFailEnvelope(body: unknown): body is FailEnvelope {
  if (!body || typeof body !== 'object') return false;
  const b = body as { result?: unknown; code?: unknown };
  if (b.result === undefined && b.code === undefined) return false;
  return b.result === 'fail' || (typeof b.code === 'number' && b.code !== 0);
}

function permissionData(errData: unknown): PermissionErrData | undefined {
  if (!errData || typeof errData !== 'object') return undefined;
  const d = errData as Record<string, unknown>;
  if (typeof d.service === 'string' && typeof d.resource === 'string' && typeof d.perm === 'string') {
    return { service: d.service, resource: d.resource, perm: d.perm };
  }
  return undefined;
}

/** Seconds to wait when errData says the sign-in is locked, else undefined. */
function lockedFor(errData: unknown): number | undefined {
  if (!errData || typeof errData !== 'object') return undefined;
  const d = errData as { locked?: unknown; retryAfter?: unknown };
  return d.locked === true && typeof d.retryAfter === 'number' && d.retryAfter > 0 ? Math.ceil(d.retryAfter) : undefined;
}

/**
 * SPEC §8: errData naming service/resource/perm → the missing-permission message; a catalogue
 * code → its phrase (credential failures with the code appended); anything else → the server's
 * message.
 */
export function envelopeMessage(body: FailEnvelope, t: Translate): string {
  const perm = permissionData(body.errData);
  if (perm) return t('errors.permission_missing', { ...perm });
  const code = typeof body.code === 'number' && body.code !== 0 ? body.code : body.errno;
  const def = typeof code === 'number' ? errorByCode(code) : undefined;
  if (def) {
    const text = t(`errors.${def.key}`);
    if (def.key !== 'bad_credentials') return text;
    // a throttled sign-in is still 1010, with errData {locked, retryAfter}; the wait is
    // what the user needs to know (on its own line: the sentence before it may be right too).
    const wait = lockedFor(body.errData);
    if (!wait) return `${text} (${code})`;
    // Long locks read in minutes ("15 min", not "900 s").
    const notice = wait >= 120 ? t('account.locked_notice_minutes', { minutes: Math.ceil(wait / 60) }) : t('account.locked_notice', { seconds: wait });
    return `${text} (${code})\n${notice}`;
  }
  if (typeof body.msg === 'string' && body.msg) return body.msg;
  return t('http.request_failed');
}

export function envelopeError(body: FailEnvelope, status: number, t: Translate, notified = false): ApiError {
  const code = typeof body.code === 'number' && body.code !== 0 ? body.code : body.errno;
  const key = typeof body.error === 'string' ? body.error : code !== undefined ? errorByCode(code)?.key : undefined;
  const error = new ApiError('envelope', envelopeMessage(body, t), status, code, key, notified, body.errData);
  error.say = () => envelopeMessage(body, t);
  return error;
}

function envelopeCode(body: FailEnvelope): number | undefined {
  return typeof body.code === 'number' && body.code !== 0 ? body.code : body.errno;
}

/**
 * A 403 whose code is a catalogue entry of its own (not the generic 1003 refusal) and which
 * names no missing permission: its message is the answer, not 'Forbidden'.
 */
export function isOwnAnswer(body: FailEnvelope): boolean {
  const code = envelopeCode(body);
  return code !== undefined && code !== ErrorCodes.FORBIDDEN.code && errorByCode(code) !== undefined && !permissionData(body.errData);
}

/**
 * What a refusal of access says (SPEC §6, §8): the missing permission when errData names it;
 * 'Permission not defined' when it names a permission without where it lives; otherwise
 * 'Permission not defined or insufficient', or the server's own words for an unknown code.
 */
export function forbiddenMessage(body: FailEnvelope, t: Translate): string {
  const perm = permissionData(body.errData);
  if (perm) return t('errors.permission_missing', { ...perm });
  const data = body.errData && typeof body.errData === 'object' ? (body.errData as Record<string, unknown>) : {};
  if (typeof data.perm === 'string') return t('errors.permission_undefined');
  const code = envelopeCode(body);
  if (code === undefined || code === ErrorCodes.FORBIDDEN.code || !body.msg) return t('http.permission_insufficient');
  return envelopeMessage(body, t);
}

/** The field a parameter error names (errData {field, reason}) and its reason's phrase key. */
export function fieldError(err: unknown): { field: string; reason: string } | undefined {
  if (!(err instanceof ApiError) || !err.errData || typeof err.errData !== 'object') return undefined;
  const d = err.errData as { field?: unknown; reason?: unknown };
  return typeof d.field === 'string' ? { field: d.field, reason: typeof d.reason === 'string' ? d.reason : '' } : undefined;
}
