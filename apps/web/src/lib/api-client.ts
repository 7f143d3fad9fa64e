/**
 * The one API client (STYLE §13) and its error policy (SPEC §7-§8): bearer token, the
 * current language, a 6 s timeout, and one reaction per failure kind. Components never parse
 * error bodies; they get data or an ApiError whose message is ready to show.
 */
import { ApiError, envelopeError, forbiddenMessage, isFailEnvelope, isOwnAnswer, type Translate } from './api-error';
import { notifyError } from './feedback';
import { i18n, localeState } from './i18n';
import { LIMITS } from '@umbo/contracts/checks';
import { noteServerDate } from './server-clock';
import { clearToken, getToken } from './token';

export interface RequestOptions {
  body?: unknown;
  signal?: AbortSignal;
  /** Sign-in and sign-out calls: a 401 there is a failed sign-in, not an expired session. */
  authCall?: boolean;
  /** A body sent as it is (a CSV file) with its content type, instead of `body` as JSON. */
  rawBody?: { contentType: string; data: Blob | string };
  /** Longer than SPEC §9's 6 s for a call whose work grows with its input (a large CSV import). */
  timeoutMs?: number;
  /**
   * A download read as it arrives: a successful answer is handed back as the Response, its
   * body unread, and the timeout covers the wait for the answer's start only. Failures go
   * through the error policy like any other call.
   */
  stream?: boolean;
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
  if (options.rawBody) headers['Content-Type'] = options.rawBody.contentType;

  const timer = new AbortController();
  const timeout = timer.signal;
  const clock = window.setTimeout(() => timer.abort(new DOMException('timeout', 'TimeoutError')), options.timeoutMs ?? LIMITS.httpTimeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: options.rawBody ? options.rawBody.data : options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'same-origin',
      signal,
    });
  } catch (err) {
    // The caller cancelled (e.g. TanStack Query dropped the query): not a failure to report.
    if (options.signal?.aborted) throw err;
    const timedOut = timeout.aborted;
    const description = t(timedOut ? 'http.timeout' : 'http.no_response');
    // SPEC §8: 'request timeout' / 'Login failed' head the notice where they apply.
    notifyError(
      () => (timedOut ? t('http.request_timeout') : options.authCall ? t('login.failed') : t('http.request_failed')),
      () => t(timedOut ? 'http.timeout' : 'http.no_response'),
    );
    throw new ApiError(timedOut ? 'timeout' : 'network', description, 0, undefined, undefined, true);
  }
  // what the server's clock says (captcha and resend deadlines are times of its own)
  noteServerDate(res.headers.get('date'));
  if (options.stream) {
    // The answer has started: a long download is not a timeout.
    window.clearTimeout(clock);
    if (res.ok) return res as T;
  }

  let body: unknown;
  try {
    body = await readBody(res);
  } finally {
    window.clearTimeout(clock);
  }

  if (res.status === 401 && !options.authCall) {
    // A screen fires several calls at once; when the session is gone they all come back 401,
    // and the user must see one notice, not a stack of them.
    notifyError(
      () => t('http.unauthorized'),
      () => t('http.unauthorized_desc'),
      'session-expired',
    );
    expireSession();
    throw new ApiError('unauthorized', t('http.unauthorized_desc'), 401, undefined, 'unauthorized', true);
  }
  // A 403 carrying its own catalogue answer (5007 email not activated, 1011 disabled, 1014
  // method off, 1008 password change required) is that answer, shown like any other; only a
  // refusal of access reads 'Forbidden' (SPEC §8).
  if (res.status === 403 && !(isFailEnvelope(body) && isOwnAnswer(body))) {
    const detail = isFailEnvelope(body) ? forbiddenMessage(body, t) : t('http.permission_insufficient');
    notifyError(
      () => t('http.forbidden'),
      () => (isFailEnvelope(body) ? forbiddenMessage(body, t) : t('http.permission_insufficient')),
    );
    if (isFailEnvelope(body)) {
      const { code, key } = envelopeError(body, 403, t);
      throw new ApiError('envelope', detail, 403, code, key, true, body.errData);
    }
    throw new ApiError('forbidden', detail, 403, undefined, 'forbidden', true);
  }
  if (isFailEnvelope(body)) throw envelopeError(body, res.status, t);
  if (!res.ok) {
    const description = t('http.server_error', { status: res.status });
    notifyError(
      () => (options.authCall ? t('login.failed') : t('http.request_failed')),
      () => t('http.server_error', { status: res.status }),
    );
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
