/**
 * The one API client (STYLE §13) and its error policy (SPEC §7-§8): bearer token, the
 * current language, a 6 s timeout, and one reaction per failure kind. Components never parse
 * error bodies; they get data or an ApiError whose message is ready to show.
 */
import { ApiError, envelopeError, envelopeMessage, isFailEnvelope, type Translate } from './api-error';
import { notifyError } from './feedback';
import { i18n, localeState } from './i18n';
import { LIMITS } from '@umbo/contracts/checks';
import { clearToken, getToken } from './token';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Sign-in and sign-out calls: a 401 there is a failed sign-in, not an expired session. */
  authCall?: boolean;
}

const t: Translate = (key, options) => String(i18n.t(key as never, options as never));

let reloadScheduled = false;

/** SPEC §4/§9: on a 401 while holding a token, sign out and reload after 1.5 s. */
function expireSession(): void {
  if (!getToken() || reloadScheduled) return;
  clearToken();
  reloadScheduled = true;
  window.setTimeout(() => window.location.reload(), LIMITS.logoutReloadMs);
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': localeState().tag };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';

  const timeout = AbortSignal.timeout(LIMITS.httpTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    // The caller cancelled (e.g. TanStack Query dropped the query): not a failure to report.
    if (options.signal?.aborted) throw err;
    const timedOut = timeout.aborted;
    const description = t(timedOut ? 'http.timeout' : 'http.no_response');
    notifyError(t('http.request_failed'), description);
    throw new ApiError(timedOut ? 'timeout' : 'network', description, 0, undefined, undefined, true);
  }

  const body = await readBody(res);

  if (res.status === 401 && !options.authCall) {
    // A screen fires several calls at once; when the session is gone they all come back 401,
    // and the user must see one notice, not a stack of them.
    notifyError(t('http.unauthorized'), t('http.unauthorized_desc'), 'session-expired');
    expireSession();
    throw new ApiError('unauthorized', t('http.unauthorized_desc'), 401, undefined, 'unauthorized', true);
  }
  if (res.status === 403) {
    const detail = isFailEnvelope(body) ? envelopeMessage(body, t) : undefined;
    notifyError(t('http.forbidden'), detail);
    if (isFailEnvelope(body)) throw envelopeError(body, 403, t, true);
    throw new ApiError('forbidden', t('http.forbidden'), 403, undefined, 'forbidden', true);
  }
  if (isFailEnvelope(body)) throw envelopeError(body, res.status, t);
  if (!res.ok) {
    const description = t('http.server_error', { status: res.status });
    notifyError(t('http.request_failed'), description);
    throw new ApiError('http', description, res.status, undefined, undefined, true);
  }
  if (body && typeof body === 'object' && 'data' in body) return (body as { data: T }).data;
  return body as T;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'body'>) => request<T>('DELETE', path, { ...options, body }),
};
