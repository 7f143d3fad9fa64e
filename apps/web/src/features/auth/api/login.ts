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
  const result = await api.post<LoginResult>(paths.login, body, { authCall: true });
  setToken(result.token, result.expiresAt);
  return result;
}

export interface LoginFailure {
  message?: string | undefined;
  code?: number | undefined;
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
      const failure = { message: shown ? undefined : err instanceof Error ? err.message : String(err), code: err instanceof ApiError ? err.code : undefined };
      setError(failure);
      return failure;
    } finally {
      setPending(false);
    }
  };
  return { submit, pending, error };
}
