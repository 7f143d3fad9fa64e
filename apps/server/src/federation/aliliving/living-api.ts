/**
 * The two Ali Living (生活物联网平台) cloud API calls that link an account, over the Aliyun
 * IoT API gateway (https://api.link.aliyun.com by default), each a signed JSON POST
 * (gateway-sign.ts) with the platform's envelope {id, version: '1.0', request: {apiVer,
 * cloudToken?}, params} and answer {code: 200, data}:
 *
 *   1. /cloud/token, apiVer 1.0.1, params {grantType: 'project', res: projectRes}
 *      → data.cloudToken (help.aliyun.com/document_detail/177833; its example answer names
 *      the field iotToken, so both are read)
 *   2. /cloud/account/getByOpenId, apiVer 1.0.4, cloudToken, params {openId, openIdAppKey}
 *      → data.identityId (help.aliyun.com/document_detail/129742, "通过三方外标查询账号信息")
 *
 * openId is our account id; openIdAppKey the realm's appKey. Every request goes through the
 * guarded outbound client. Errors carry short, fixed wording plus the platform's own
 * code and message: never a header, never the secret.
 */
import crypto from 'node:crypto';
import { outbound, type OutboundRequest, type OutboundResponse } from '../../notify/outbound.js';
import { signedJsonHeaders } from './gateway-sign.js';

export interface LivingCredentials {
  appCloudKey: string;
  appCloudSecret: string;
  projectRes: string;
  appKey: string;
}

export interface LivingApiOptions {
  baseUrl: string;
  allowPrivate: boolean;
  timeoutMs: number;
  now(): number;
  /** injectable for tests; the guarded client by default */
  send?: (req: OutboundRequest) => Promise<OutboundResponse>;
}

export class LivingApiError extends Error {}

/** Bounded and on one line: what an administrator reads on the account's detail. */
const short = (s: unknown) =>
  String(s ?? '')
    .replace(/\s+/g, ' ')
    .slice(0, 120);

export function createLivingApi(o: LivingApiOptions) {
  const send = o.send ?? ((req: OutboundRequest) => outbound(req));

  async function call(
    c: LivingCredentials,
    path: string,
    apiVer: string,
    params: Record<string, string>,
    cloudToken?: string,
  ): Promise<Record<string, unknown>> {
    const id = crypto.randomUUID();
    const body = JSON.stringify({ id, version: '1.0', request: { apiVer, ...(cloudToken ? { cloudToken } : {}) }, params });
    const headers = signedJsonHeaders({
      appKey: c.appCloudKey,
      appSecret: c.appCloudSecret,
      method: 'POST',
      path,
      body,
      now: o.now(),
      nonce: crypto.randomUUID(),
    });
    let res: OutboundResponse;
    try {
      res = await send({ method: 'POST', url: new URL(path, o.baseUrl).toString(), headers, body, allowPrivate: o.allowPrivate, timeoutMs: o.timeoutMs });
    } catch (err) {
      throw new LivingApiError(`${path}: unreachable (${short((err as Error).message)})`);
    }
    // The gateway refuses a bad signature, key or timestamp with a 4xx of its own.
    if (res.status !== 200) throw new LivingApiError(`${path}: gateway answered HTTP ${res.status}`);
    let answer: { code?: unknown; message?: unknown; data?: unknown };
    try {
      answer = JSON.parse(res.body) as typeof answer;
    } catch {
      throw new LivingApiError(`${path}: answer is not JSON`);
    }
    if (answer.code !== 200) throw new LivingApiError(`${path}: code ${short(answer.code)} ${short(answer.message)}`.trim());
    if (!answer.data || typeof answer.data !== 'object') throw new LivingApiError(`${path}: answer without data`);
    return answer.data as Record<string, unknown>;
  }

  /** The Ali Living identity id of `openId`, through a fresh project cloud token. */
  async function identityOf(c: LivingCredentials, openId: string): Promise<string> {
    const tokenData = await call(c, '/cloud/token', '1.0.1', { grantType: 'project', res: c.projectRes });
    const cloudToken = tokenData.cloudToken ?? tokenData.iotToken;
    if (typeof cloudToken !== 'string' || !cloudToken) throw new LivingApiError('/cloud/token: answer without a cloud token');
    const data = await call(c, '/cloud/account/getByOpenId', '1.0.4', { openId, openIdAppKey: c.appKey }, cloudToken);
    const identityId = data.identityId;
    if (typeof identityId !== 'string' || !/^[\w.:-]{1,128}$/.test(identityId))
      throw new LivingApiError('/cloud/account/getByOpenId: answer without an identity id');
    return identityId;
  }

  return { identityOf };
}

export type LivingApi = ReturnType<typeof createLivingApi>;
