/**
 * POST /api/users/auth/login (SPEC §7): credentials → a 7-day bearer token. The sign-in page
 * is kept free of TanStack Query and antd (bench budget), so the hook is a small state machine.
 */
import type { LoginBody, LoginResult } from '@umbo/contracts/auth';
import { paths } from '@umbo/contracts/paths';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { setToken } from '../../../lib/token';

export async function login(body: LoginBody): Promise<LoginResult> {
  // The shared client never resends a request (every sign-in is a counted guess, A-31).
  const result = await api.post<LoginResult>(paths.login, body, { authCall: true });
  setToken(result.token, result.expiresAt);
  return result;
}

/** The OTP step's ticket (issue 10) in a 1503/1502 answer's errData, if the server sent one. */
function otpTicketOf(err: unknown): string | undefined {
  const data = err instanceof ApiError ? (err.errData as { otpTicket?: unknown } | undefined) : undefined;
  return typeof data?.otpTicket === 'string' ? data.otpTicket : undefined;
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
      // Failures the client policy already announced (403, network) are not repeated inline.
      const shown = err instanceof ApiError && err.notified;
      const failure = {
        message: shown ? undefined : err instanceof Error ? err.message : String(err),
        code: err instanceof ApiError ? err.code : undefined,
        otpTicket: otpTicketOf(err),
      };
      setError(failure);
      return failure;
    } finally {
      setPending(false);
    }
  };
  return { submit, pending, error };
}
