/**
 * Global mail and SMS settings from the environment (issue 3; README "Configuration"):
 * SMTP_URL, MAIL_FROM, SMS_PROVIDER (outbox | webhook | aliyun | twilio) and the provider's
 * variables, NOTIFY_ALLOW_PRIVATE_NETWORK. Without SMTP_URL or SMS_PROVIDER every message
 * goes to the outbox, so each flow works on a fresh start.
 */
import { ConfigError } from '../platform/config.js';
import type { SmsProviderConfig } from './types.js';

export interface NotifyConfig {
  smtpUrl: string | undefined;
  mailFrom: string;
  sms: SmsProviderConfig;
  allowPrivateNetwork: boolean;
}

type Env = Record<string, string | undefined>;

function need(env: Env, name: string): string {
  const v = env[name];
  if (!v) throw new ConfigError(name, `is required when SMS_PROVIDER=${env.SMS_PROVIDER}`);
  return v;
}

function smsFromEnv(env: Env): SmsProviderConfig {
  switch (env.SMS_PROVIDER || 'outbox') {
    case 'outbox':
      return { provider: 'outbox' };
    case 'webhook':
      return { provider: 'webhook', url: need(env, 'SMS_WEBHOOK_URL'), secret: env.SMS_WEBHOOK_SECRET };
    case 'aliyun':
      return {
        provider: 'aliyun',
        accessKeyId: need(env, 'ALIYUN_SMS_ACCESS_KEY_ID'),
        accessKeySecret: need(env, 'ALIYUN_SMS_ACCESS_KEY_SECRET'),
        signName: need(env, 'ALIYUN_SMS_SIGN_NAME'),
        templateCode: need(env, 'ALIYUN_SMS_TEMPLATE_CODE'),
        regionId: env.ALIYUN_SMS_REGION_ID,
        endpoint: env.ALIYUN_SMS_ENDPOINT,
      };
    case 'twilio':
      return {
        provider: 'twilio',
        accountSid: need(env, 'TWILIO_ACCOUNT_SID'),
        authToken: need(env, 'TWILIO_AUTH_TOKEN'),
        from: env.TWILIO_FROM,
        messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID,
        endpoint: env.TWILIO_ENDPOINT,
      };
    default:
      throw new ConfigError('SMS_PROVIDER', `must be outbox, webhook, aliyun or twilio, got "${env.SMS_PROVIDER}"`);
  }
}

export function loadNotifyConfig(env: Env = process.env): NotifyConfig {
  const smtpUrl = env.SMTP_URL || undefined;
  if (smtpUrl && !/^smtps?:\/\//.test(smtpUrl)) throw new ConfigError('SMTP_URL', 'must start with smtp:// or smtps://');
  return {
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'umbo <no-reply@localhost>',
    sms: smsFromEnv(env),
    allowPrivateNetwork: env.NOTIFY_ALLOW_PRIVATE_NETWORK === 'true',
  };
}
