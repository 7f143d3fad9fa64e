/**
 * Twilio Programmable Messaging: POST /2010-04-01/Accounts/{AccountSid}/Messages.json as a
 * form (To, From or MessagingServiceSid, Body) with HTTP Basic auth AccountSid:AuthToken.
 */
import { outbound } from '../outbound.js';
import type { SmsMessage, SmsProvider } from '../types.js';

export interface TwilioOptions {
  accountSid: string;
  authToken: string;
  from?: string | undefined;
  messagingServiceSid?: string | undefined;
  endpoint?: string | undefined;
  allowPrivate: boolean;
}

export function createTwilioSms(o: TwilioOptions): SmsProvider {
  return {
    name: 'twilio',
    async send(_realmId: string, msg: SmsMessage): Promise<void> {
      const form = new URLSearchParams({ To: msg.to, Body: msg.text });
      if (o.messagingServiceSid) form.set('MessagingServiceSid', o.messagingServiceSid);
      else if (o.from) form.set('From', o.from);
      const base = (o.endpoint || 'https://api.twilio.com').replace(/\/+$/, '');
      const res = await outbound({
        method: 'POST',
        url: `${base}/2010-04-01/Accounts/${encodeURIComponent(o.accountSid)}/Messages.json`,
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${o.accountSid}:${o.authToken}`).toString('base64')}`,
        },
        body: form.toString(),
        allowPrivate: o.allowPrivate,
      });
      if (res.status !== 201 && res.status !== 200) throw new Error(`twilio sms failed: ${res.status}`);
    },
  };
}
