/**
 * POST /api/users/auth/login (SPEC §7): credentials → a 7-day bearer token. The sign-in page
 * is kept free of TanStack Query and antd (bench budget), so the hook is a small state machine.
 */
import type { LoginBody, LoginResult } from '@umbo/contracts/auth';
import { paths } from '@umbo/contracts/paths';
import { useState } from 'react';
import { LIMITS } from '@umbo/contracts/checks';
import { ApiError, envelopeError, envelopeMessage, isFailEnvelope, type Translate } from '../../../lib/api-error';
import { notifyError } from '../../../lib/feedback';
import { i18n, localeState } from '../../../lib/i18n';
import { setToken } from '../../../lib/token';

/** A refused sign-in, with the OTP ticket of a 1503/1502 (issue 10) when the server sent one. */
class LoginRefused extends Error {
  constructor(
    readonly error: ApiError,
    readonly otpTicket: string | undefined,
  ) {
    super(error.message);
  }
}

const t: Translate = (key, options) => String(i18n.t(key as never, options as never));

/**
 * The api client keeps errData to itself, and the OTP step needs one field of it, so this call
 * reads its own answer (an auth call, without a token): a fail envelope becomes the client's
 * ApiError with the SPEC §8 message; no answer or a non-envelope failure is reported as the
 * client reports it. Never sent twice: every sign-in is a counted guess.
 */
export async function login(body: LoginBody): Promise<LoginResult> {
  let res: Response;
  try {
    res = await fetch(paths.login, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'Accept-Language': localeState().tag },
      body: JSON.stringify(body),
      credentials: 'same-origin',
      signal: AbortSignal.timeout(LIMITS.httpTimeoutMs),
    });
  } catch (err) {
    const timedOut = err instanceof DOMException && err.name === 'TimeoutError';
    const description = t(timedOut ? 'http.timeout' : 'http.no_response');
    notifyError(t('http.request_failed'), description);
    throw new ApiError(timedOut ? 'timeout' : 'network', description, 0, undefined, undefined, true);
  }
  const answer: unknown = await res.json().catch(() => undefined);
  if (isFailEnvelope(answer)) {
    // SPEC §8: a 403 (disabled, not activated) is announced as 'Forbidden' with the reason.
    const forbidden = res.status === 403;
    if (forbidden) notifyError(t('http.forbidden'), envelopeMessage(answer, t));
    const data = answer.errData as { otpTicket?: unknown } | undefined;
    throw new LoginRefused(envelopeError(answer, res.status, t, forbidden), typeof data?.otpTicket === 'string' ? data.otpTicket : undefined);
  }
  const result = (answer as { data?: LoginResult } | undefined)?.data;
  if (!res.ok || !result) {
    const description = t('http.server_error', { status: res.status });
    notifyError(t('http.request_failed'), description);
    throw new ApiError('http', description, res.status, undefined, undefined, true);
  }
  setToken(result.token, result.expiresAt);
  return result;
}

export interface LoginFailure {
  message?: string | undefined;
  code?: number | undefined;
  /** 1503/1502 after a right password: the OTP step sends it instead of a second captcha */
  otpTicket?: string | undefined;
}

export function useLogin(onSuccess: (result: LoginResult) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<LoginFailure | undefined>();
  /** Resolves to undefined on success, else to the failure (the caller reacts to 4005, 1503). */
  const submit = async (body: LoginBody): Promise<LoginFailure | undefined> => {
    setPending(true);
    setError(undefined);
    try {
      onSuccess(await login(body));
      return undefined;
    } catch (err) {
      const otpTicket = err instanceof LoginRefused ? err.otpTicket : undefined;
      const e = err instanceof LoginRefused ? err.error : err;
      // Failures the client policy already announced (403, network) are not repeated inline.
      const shown = e instanceof ApiError && e.notified;
      const failure = { message: shown ? undefined : e instanceof Error ? e.message : String(e), code: e instanceof ApiError ? e.code : undefined, otpTicket };
      setError(failure);
      return failure;
    } finally {
      setPending(false);
    }
  };
  return { submit, pending, error };
}
