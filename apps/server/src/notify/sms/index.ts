/** One interface, four SMS providers (issue 3): outbox (default), webhook, Aliyun, Twilio. */
import type { SmsProvider, SmsProviderConfig } from '../types.js';
import { createAliyunSms } from './aliyun.js';
import { createTwilioSms } from './twilio.js';
import { createWebhookSms } from './webhook.js';

/**
 * `open` reveals a stored secret: realm records keep them sealed, the environment does not.
 */
export function createSmsProvider(cfg: SmsProviderConfig, opts: { outbox: SmsProvider; allowPrivate: boolean; open(secret: string): string }): SmsProvider {
  const { allowPrivate, open } = opts;
  switch (cfg.provider) {
    case 'webhook':
      return createWebhookSms({ url: cfg.url, secret: cfg.secret ? open(cfg.secret) : undefined, allowPrivate });
    case 'aliyun':
      return createAliyunSms({ ...cfg, accessKeySecret: open(cfg.accessKeySecret), allowPrivate });
    case 'twilio':
      return createTwilioSms({ ...cfg, authToken: open(cfg.authToken), allowPrivate });
    default:
      return opts.outbox;
  }
}
