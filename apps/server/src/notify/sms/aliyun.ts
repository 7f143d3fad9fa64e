/**
 * Aliyun (Alibaba Cloud) SMS, SendSms of API version 2017-05-25, signed per Aliyun's RPC
 * signature v1: sort the parameters, percent-encode them (RFC 3986; space %20, `*` %2A,
 * `~` kept), StringToSign = METHOD & %2F & encode(canonical query), Signature =
 * base64(HMAC-SHA1(AccessKeySecret + "&", StringToSign)).
 */
import crypto from 'node:crypto';
import { outbound } from '../outbound.js';
import type { SmsMessage, SmsProvider } from '../types.js';

export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

export function signRpc(method: 'GET' | 'POST', params: Record<string, string>, accessKeySecret: string): string {
  const canonical = Object.keys(params)
    .sort()
    .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
    .join('&');
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonical)}`;
  return crypto.createHmac('sha1', `${accessKeySecret}&`).update(stringToSign).digest('base64');
}

/** Aliyun wants mainland numbers without +86 and others as country code + number. */
export function aliyunNumber(e164: string): string {
  return e164.startsWith('+86') ? e164.slice(3) : e164.replace(/^\+/, '');
}

export interface AliyunOptions {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  templateCode: string;
  regionId?: string | undefined;
  endpoint?: string | undefined;
  allowPrivate: boolean;
  now?: () => Date;
}

export function createAliyunSms(o: AliyunOptions): SmsProvider {
  return {
    name: 'aliyun',
    async send(_realmId: string, msg: SmsMessage): Promise<void> {
      // The one configured template carries a code; a message without one (a security notice)
      // would arrive as an empty verification code, so it is refused (and logged by defer).
      if (!msg.code) throw new Error(`aliyun sms: no template for ${msg.purpose} messages`);
      const params: Record<string, string> = {
        AccessKeyId: o.accessKeyId,
        Action: 'SendSms',
        Format: 'JSON',
        PhoneNumbers: aliyunNumber(msg.to),
        RegionId: o.regionId || 'cn-hangzhou',
        SignName: o.signName,
        SignatureMethod: 'HMAC-SHA1',
        SignatureNonce: crypto.randomUUID(),
        SignatureVersion: '1.0',
        TemplateCode: o.templateCode,
        TemplateParam: JSON.stringify({ code: msg.code }),
        Timestamp: (o.now?.() ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
        Version: '2017-05-25',
      };
      const signature = signRpc('POST', params, o.accessKeySecret);
      const body = `Signature=${percentEncode(signature)}&${Object.keys(params)
        .map((k) => `${percentEncode(k)}=${percentEncode(params[k]!)}`)
        .join('&')}`;
      const res = await outbound({
        method: 'POST',
        url: `${(o.endpoint || 'https://dysmsapi.aliyuncs.com').replace(/\/+$/, '')}/`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body,
        allowPrivate: o.allowPrivate,
      });
      let answer: { Code?: string; Message?: string } = {};
      try {
        answer = JSON.parse(res.body) as typeof answer;
      } catch {
        // handled below
      }
      if (res.status !== 200 || answer.Code !== 'OK') throw new Error(`aliyun sms failed: ${res.status} ${answer.Code ?? ''} ${answer.Message ?? ''}`);
    },
  };
}
