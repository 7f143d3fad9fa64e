/**
 * A generic HTTP webhook for any other gateway: POST JSON {realmId, to, text, code, purpose};
 * with a secret, `X-Umbo-Signature: sha256=<hex HMAC-SHA256 of the body>` lets the receiver
 * check the sender.
 */
import crypto from 'node:crypto';
import { outbound } from '../outbound.js';
import type { SmsMessage, SmsProvider } from '../types.js';

export function createWebhookSms(o: { url: string; secret?: string | undefined; allowPrivate: boolean }): SmsProvider {
  return {
    name: 'webhook',
    async send(realmId: string, msg: SmsMessage): Promise<void> {
      const body = JSON.stringify({ realmId, to: msg.to, text: msg.text, code: msg.code, purpose: msg.purpose });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (o.secret) headers['x-umbo-signature'] = `sha256=${crypto.createHmac('sha256', o.secret).update(body).digest('hex')}`;
      const res = await outbound({ method: 'POST', url: o.url, headers, body, allowPrivate: o.allowPrivate });
      if (res.status < 200 || res.status >= 300) throw new Error(`sms webhook failed: ${res.status}`);
    },
  };
}
