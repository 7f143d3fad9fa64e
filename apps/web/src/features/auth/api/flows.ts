/**
 * The public code, registration, recovery and token flows (issue 3; contracts auth-flows.ts).
 * Plain fetch through the API client: these run on light pages without TanStack Query or zod.
 */
import type { LoginResult } from '@umbo/contracts/auth';
import { useState } from 'react';
import { api } from '../../../lib/api-client';
import { ApiError } from '../../../lib/api-error';
import { flowPaths } from '@umbo/contracts/paths';
import { setToken } from '../../../lib/token';

export type CodePurpose = 'login' | 'register' | 'retrieve';
export type Channel = 'sms' | 'email';

export interface CodeIssued {
  serialNo: string;
  expiresAt: number;
  /** earliest time (ms) a new code may be asked for */
  resendAt: number;
}

/** A phone number as the server takes it: national part plus country calling code. */
export interface Phone {
  mobile: string;
  country?: string;
}

/** Sent only when the form shows the captcha (realm policy, or after a 4005). */
interface CaptchaAnswer {
  captcha?: string;
  serialNo?: string;
}

const auth = { authCall: true } as const;
const realm = (realmId: string | undefined) => (realmId ? { realm_id: realmId } : {});

export function sendCode(
  channel: Channel,
  target: Phone | { email: string },
  purpose: CodePurpose,
  captcha: CaptchaAnswer,
  realmId: string | undefined,
  lang: string,
) {
  const path = channel === 'sms' ? flowPaths.smsCode : flowPaths.emailCode;
  return api.post<CodeIssued>(path, { ...realm(realmId), ...target, ...captcha, purpose, lang }, auth);
}

async function signedIn(promise: Promise<LoginResult>): Promise<LoginResult> {
  const result = await promise;
  setToken(result.token, result.expiresAt);
  return result;
}

export function loginByCode(
  channel: Channel,
  body: (Phone | { email: string }) & { code: string; serialNo: string; otp?: string },
  realmId: string | undefined,
) {
  const path = channel === 'sms' ? flowPaths.loginSms : flowPaths.loginEmail;
  return signedIn(api.post<LoginResult>(path, { ...realm(realmId), ...body }, auth));
}

export interface Registered {
  userId: string;
  username: string;
  activationRequired: boolean;
  /** the address the activation mail went to (email registration; the form knows it) */
  email?: string;
}

export const registerByEmail = (body: { email: string; password: string; username?: string } & CaptchaAnswer, realmId: string | undefined, lang: string) =>
  api.post<Registered>(flowPaths.registerEmail, { ...realm(realmId), ...body, lang }, auth);

export const registerBySms = (body: Phone & { code: string; serialNo: string; password: string; username?: string }, realmId: string | undefined) =>
  api.post<Registered>(flowPaths.registerSms, { ...realm(realmId), ...body }, auth);

/**
 * contracts auth-flows.ts `resendActivationPath`, written out: that module imports zod, which
 * the sign-in bundle must not load (lib/light-imports.test.ts). To move into `flowPaths`.
 */
const RESEND_ACTIVATION_PATH = '/api/users/auth/register/resend';

/** Another activation mail (issue 10): accepted whether or not such an account waits. */
export const resendActivation = (body: { email: string } & CaptchaAnswer, realmId: string | undefined, lang: string) =>
  api.post<{ accepted: true }>(RESEND_ACTIVATION_PATH, { ...realm(realmId), ...body, lang }, auth);

export const activate = (code: string, realmId: string | undefined) => api.post<{ username: string }>(flowPaths.activate, { ...realm(realmId), code }, auth);

export const retrieveByEmail = (body: { email: string } & CaptchaAnswer, realmId: string | undefined, lang: string) =>
  api.post<{ accepted: true }>(flowPaths.retrieveEmail, { ...realm(realmId), ...body, lang }, auth);

export const retrieveBySms = (body: Phone & { code: string; serialNo: string; password: string }, realmId: string | undefined) =>
  api.post<{ accepted: true }>(flowPaths.retrieveSms, { ...realm(realmId), ...body }, auth);

export const resetPassword = (body: { code: string; password: string }, realmId: string | undefined) =>
  api.post<{ accepted: true }>(flowPaths.reset, { ...realm(realmId), ...body }, auth);

export const loginByFToken = (ftoken: string) => signedIn(api.post<LoginResult>(flowPaths.loginFtoken, { ftoken }, auth));

export interface CallError {
  /** undefined when the client policy already showed it (network, 403) */
  message?: string;
  code?: number;
}

/** pending/error around one call; `run` resolves to the answer or undefined on failure. */
export function callError(err: unknown): CallError {
  const shown = err instanceof ApiError && err.notified;
  return { message: shown ? undefined : err instanceof Error ? err.message : String(err), code: err instanceof ApiError ? err.code : undefined };
}

export function useCall(onError?: (e: CallError) => void) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<CallError | undefined>();
  /** `onFailure` sees this call's error too (e.g. a form's captcha reacting to 4005). */
  const run = async <T>(call: () => Promise<T>, onFailure?: (e: CallError) => void): Promise<T | undefined> => {
    setPending(true);
    setError(undefined);
    try {
      return await call();
    } catch (err) {
      const e = callError(err);
      setError(e);
      onError?.(e);
      onFailure?.(e);
      return undefined;
    } finally {
      setPending(false);
    }
  };
  return { run, pending, error, setError };
}
