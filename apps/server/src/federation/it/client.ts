/**
 * One signed call to a realm's IT-interface backend (docs/it-interface.md): the URL from the
 * realm's settings (scheme from hasHttps, the region's host, port, path + endpoint path), the
 * body as JSON or as a form post, the signature headers, and the answer read strictly. Every
 * call goes through the guarded outbound client and is bounded to 3 s in all, well
 * under the console's 6 s (SPEC §9), so a slow backend gives 1303 before the browser gives up.
 * Connections are kept alive per backend origin (pool.ts): each new socket is checked as a
 * one-off call's is, a reused one was checked when it connected.
 */
import { z } from 'zod';
import type { Clock } from '../../platform/clock.js';
import { outbound, OutboundRefused, type OutboundDeps } from '../../notify/outbound.js';
import type { ItBackend } from '../../realms/realm-settings.backend.js';
import { itPool, type ItPool } from './pool.js';
import { signRequest } from './signature.js';

export type { ItBackend };

export const IT_TIMEOUT_MS = 3000;

/** The backend could not give an answer we can use: 1303 (reason for errData and the breaker, never a secret). */
export class ItUnavailable extends Error {
  constructor(readonly reason: 'refused' | 'unreachable' | 'timeout' | 'server_error' | 'bad_answer' | 'signature_refused' | 'breaker_open') {
    super(`it backend: ${reason}`);
  }
}

/** A business answer other than success (docs "Answer codes"): the caller decides what it means. */
export class ItAnswer extends Error {
  constructor(readonly itCode: number) {
    super(`it backend answered ${itCode}`);
  }
}

/** The region entry for a sign-in: the one named `region`, else defaultRegion (docs "Regions"). */
export function regionOf(backend: ItBackend, region: string | undefined): { region: string; host: string } {
  const wanted = region?.replace(/^\+/, '');
  const found = (wanted && backend.regions.find((r) => r.region === wanted)) || backend.regions.find((r) => r.region === backend.defaultRegion);
  // The settings schema guarantees defaultRegion is listed; the first region is a last resort.
  return found ?? backend.regions[0]!;
}

/** scheme://host:port + path + endpoint path, with exactly one slash between path and endpoint. */
export function endpointUrl(backend: ItBackend, host: string, endpoint: string): URL {
  const base = backend.path.replace(/\/+$/, '');
  return new URL(`${backend.hasHttps ? 'https' : 'http'}://${host}:${backend.port}${base}${endpoint}`);
}

const envelope = z.object({ code: z.number().int(), msg: z.string().optional(), data: z.unknown().optional() });

export interface ItCallDeps {
  clock: Clock;
  /** NOTIFY_ALLOW_PRIVATE_NETWORK: private, loopback and link-local backends only when the operator allows them */
  allowPrivate: boolean;
  outbound?: OutboundDeps;
  /** keep-alive agents per backend origin; default the process's pool */
  pool?: ItPool;
}

export interface ItRequest {
  backend: ItBackend;
  /** the unsealed appSercet */
  secret: string;
  host: string;
  endpoint: string;
  fields: Record<string, string | string[]>;
  form?: boolean;
}

function encodeBody(fields: ItRequest['fields'], form: boolean): { body: string; contentType: string } {
  if (!form) return { body: JSON.stringify(fields), contentType: 'application/json' };
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) p.append(k, one);
  return { body: p.toString(), contentType: 'application/x-www-form-urlencoded' };
}

function classify(err: unknown): ItUnavailable {
  if (err instanceof ItUnavailable) return err;
  if (err instanceof OutboundRefused) return new ItUnavailable('refused');
  if (err instanceof Error && err.message === 'timeout') return new ItUnavailable('timeout');
  return new ItUnavailable('unreachable');
}

/** Sends one request; answers `data` of a code-0 answer, throws ItAnswer for another code, ItUnavailable otherwise. */
export async function callIt(deps: ItCallDeps, req: ItRequest): Promise<unknown> {
  const url = endpointUrl(req.backend, req.host, req.endpoint);
  const { body, contentType } = encodeBody(req.fields, req.form ?? false);
  const headers = {
    'content-type': contentType,
    accept: 'application/json',
    ...signRequest({ appKey: req.backend.appKey, secret: req.secret, method: 'POST', pathWithQuery: url.pathname + url.search, body, nowMs: deps.clock.now() }),
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ItUnavailable('timeout')), IT_TIMEOUT_MS);
  });
  let res: { status: number; body: string };
  try {
    const agent = (deps.pool ?? itPool).agentFor(url, deps.allowPrivate, deps.outbound?.resolve);
    const sent = outbound({ method: 'POST', url, headers, body, allowPrivate: deps.allowPrivate, timeoutMs: IT_TIMEOUT_MS, agent }, deps.outbound);
    sent.catch(() => undefined); // after the deadline won, a late failure is nobody's business
    res = await Promise.race([sent, deadline]);
  } catch (err) {
    throw classify(err);
  } finally {
    clearTimeout(timer);
  }
  if (res.status === 401 || res.status === 403) throw new ItUnavailable('signature_refused');
  if (res.status !== 200) throw new ItUnavailable(res.status >= 500 ? 'server_error' : 'bad_answer');
  let parsed: z.infer<typeof envelope>;
  try {
    parsed = envelope.parse(JSON.parse(res.body));
  } catch {
    throw new ItUnavailable('bad_answer');
  }
  if (parsed.code !== 0) throw new ItAnswer(parsed.code);
  return parsed.data;
}
