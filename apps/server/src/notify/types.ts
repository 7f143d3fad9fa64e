/**
 * Mail and SMS configuration (issue 3): global from the environment, per realm from the
 * realm's settings record (its `email` config group and `sms` provider). Secrets inside a
 * realm's record are stored sealed (Secrets.encrypt) and opened only to send.
 */

/** SPEC §3 "email config" group of a realm. */
export interface RealmMailConfig {
  host: string;
  port: number;
  /** implicit TLS (465); otherwise STARTTLS when offered */
  secure: boolean;
  user?: string;
  /** sealed with Secrets.encrypt */
  password?: string;
  from: string;
}

export type SmsProviderConfig =
  | { provider: 'outbox' }
  | { provider: 'webhook'; url: string; /** sealed; signs the body (X-Umbo-Signature) */ secret?: string }
  | {
      provider: 'aliyun';
      accessKeyId: string;
      /** sealed */
      accessKeySecret: string;
      signName: string;
      templateCode: string;
      regionId?: string;
      /** default https://dysmsapi.aliyuncs.com */
      endpoint?: string;
    }
  | {
      provider: 'twilio';
      accountSid: string;
      /** sealed */
      authToken: string;
      from?: string;
      messagingServiceSid?: string;
      /** default https://api.twilio.com */
      endpoint?: string;
    };

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What an SMS carries: the text, and the code for template-based gateways (Aliyun). */
export interface SmsMessage {
  to: string;
  text: string;
  code: string;
  purpose: string;
}

export interface SmsProvider {
  readonly name: SmsProviderConfig['provider'];
  send(realmId: string, msg: SmsMessage): Promise<void>;
}
