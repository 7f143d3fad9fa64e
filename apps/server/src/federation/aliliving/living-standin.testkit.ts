/**
 * A local stand-in for the Aliyun IoT API gateway in front of the two Ali Living calls, for
 * the tests (no internet here). It checks each request the way the gateway's documentation
 * says the gateway does (help.aliyun.com/document_detail/29475), recomputing everything from
 * the raw request it received, with code of its own (not gateway-sign.ts, so a shared mistake
 * cannot pass): the key, HmacSHA256, X-Ca-Timestamp within 15 minutes, a nonce used once,
 * Content-MD5 of the body, and the signature over the listed headers, path and sorted query.
 * A refused request gets the gateway's 4xx and an X-Ca-Error-Message header.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInOptions {
  appKey: string;
  appSecret: string;
  projectRes: string;
  openIdAppKey: string;
  /** the stand-in's clock (default the real one) */
  now?: () => number;
}

export interface StandIn {
  url: string;
  port: number;
  /** requests that passed the signature check, by path */
  accepted: string[];
  /** refusals, by reason */
  refused: string[];
  /** the identity id it answers for an openId */
  identityOf(openId: string): string;
  stop(): Promise<void>;
  /** listens again on the same port (after `stop`) */
  restart(): Promise<void>;
}

const WINDOW_MS = 15 * 60 * 1000;
const NEVER_SIGNED = new Set(['x-ca-signature', 'x-ca-signature-headers', 'accept', 'content-md5', 'content-type', 'date']);

/** Recomputes the documented stringToSign from what arrived. */
function serverStringToSign(req: http.IncomingMessage, body: string): string {
  const h = (name: string) => {
    const v = req.headers[name];
    return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
  };
  const listed = h('x-ca-signature-headers')
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n && !NEVER_SIGNED.has(n))
    .sort();
  let headerBlock = '';
  for (const n of listed) headerBlock += n + ':' + h(n) + '\n';
  const url = new URL(req.url ?? '/', 'http://standin');
  const params = new Map<string, string>();
  for (const [k, v] of url.searchParams) if (!params.has(k)) params.set(k, v);
  if (h('content-type').startsWith('application/x-www-form-urlencoded')) {
    for (const [k, v] of new URLSearchParams(body)) if (!params.has(k)) params.set(k, v);
  }
  let resource = url.pathname;
  const keys = [...params.keys()].sort();
  if (keys.length) resource += '?' + keys.map((k) => (params.get(k) ? k + '=' + params.get(k) : k)).join('&');
  return [req.method ?? '', h('accept'), h('content-md5'), h('content-type'), h('date'), ''].join('\n') + headerBlock + resource;
}

export async function startStandIn(o: StandInOptions): Promise<StandIn> {
  const now = o.now ?? Date.now;
  const seenNonces = new Map<string, number>();
  const tokens = new Set<string>();
  const accepted: string[] = [];
  const refused: string[] = [];
  const identityOf = (openId: string) => `ident-${crypto.createHash('sha256').update(openId).digest('hex').slice(0, 24)}`;

  const check = (req: http.IncomingMessage, body: string): string | undefined => {
    if (req.headers['x-ca-key'] !== o.appKey) return 'Invalid Key';
    if (req.headers['x-ca-signature-method'] !== 'HmacSHA256') return 'Invalid Signature Method';
    const ts = Number(req.headers['x-ca-timestamp']);
    if (!Number.isFinite(ts) || Math.abs(now() - ts) > WINDOW_MS) return 'Invalid Timestamp';
    const nonce = String(req.headers['x-ca-nonce'] ?? '');
    if (!nonce) return 'Invalid Nonce';
    for (const [n, at] of seenNonces) if (now() - at > WINDOW_MS) seenNonces.delete(n);
    if (seenNonces.has(nonce)) return 'Nonce Used';
    const md5 = crypto.createHash('md5').update(Buffer.from(body, 'utf8')).digest('base64');
    if (body && req.headers['content-md5'] !== md5) return 'Invalid Content-MD5';
    const listed = String(req.headers['x-ca-signature-headers'] ?? '').split(',');
    if (!['x-ca-key', 'x-ca-nonce', 'x-ca-timestamp'].every((n) => listed.includes(n))) return 'Unsigned System Header';
    const expected = crypto.createHmac('sha256', o.appSecret).update(serverStringToSign(req, body)).digest();
    const given = Buffer.from(String(req.headers['x-ca-signature'] ?? ''), 'base64');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'Invalid Signature';
    seenNonces.set(nonce, now());
    return undefined;
  };

  const answer = (path: string, body: string): { code: number; message?: string; data?: unknown } => {
    const parsed = JSON.parse(body) as { version?: string; request?: { apiVer?: string; cloudToken?: string }; params?: Record<string, string> };
    if (parsed.version !== '1.0') return { code: 400, message: 'bad version' };
    if (path === '/cloud/token') {
      if (parsed.request?.apiVer !== '1.0.1' || parsed.params?.grantType !== 'project' || parsed.params?.res !== o.projectRes)
        return { code: 400, message: 'bad token request' };
      const cloudToken = crypto.randomBytes(16).toString('hex');
      tokens.add(cloudToken);
      return { code: 200, message: 'success', data: { cloudToken, expiresIn: 7_200_000 } };
    }
    if (path === '/cloud/account/getByOpenId') {
      if (parsed.request?.apiVer !== '1.0.4' || !tokens.has(parsed.request?.cloudToken ?? '')) return { code: 401, message: 'cloud token invalid' };
      if (parsed.params?.openIdAppKey !== o.openIdAppKey || !parsed.params?.openId) return { code: 400, message: 'bad openId' };
      return { code: 200, data: { identityId: identityOf(parsed.params.openId), loginSource: 'openAccount' } };
    }
    return { code: 404, message: 'no such api' };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const refusal = check(req, body);
      const path = new URL(req.url ?? '/', 'http://standin').pathname;
      if (refusal) {
        refused.push(refusal);
        res.writeHead(refusal === 'Invalid Key' ? 401 : 400, { 'x-ca-error-message': refusal }).end();
        return;
      }
      accepted.push(path);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'x', ...answer(path, body) }));
    });
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    accepted,
    refused,
    identityOf,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
    restart: async () => {
      await listen(port);
    },
  };
}
