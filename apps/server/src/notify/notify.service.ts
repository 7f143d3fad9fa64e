/**
 * Delivery of mail and SMS (issue 3). Mail: the realm's SMTP, else the global SMTP_URL, else
 * the outbox. SMS: the realm's provider, else the global one (default outbox). The outbox
 * stores the message (encrypted at rest) for the outbox page of master administrators, so
 * every flow can be completed on a fresh `npm start`; the log only says that a message was
 * kept, never what it says (issue 8: codes and links never reach a log line).
 *
 * Public flows hand delivery to `defer`, so that the answer and its timing do not depend on
 * whether a message went out (DESIGN.md §5); `settled()` waits for pending deliveries.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.js';
import { newId, type Secrets } from '../platform/crypto.js';
import type { NotifyConfig } from './config.js';
import { sendViaRealmSmtp, sendViaSmtpUrl } from './mailer.js';
import type { OutboxRepo } from './outbox.repo.js';
import { createSmsProvider } from './sms/index.js';
import type { MailMessage, RealmMailConfig, SmsMessage, SmsProvider, SmsProviderConfig } from './types.js';

export interface RealmDelivery {
  email?: RealmMailConfig | undefined;
  sms?: SmsProviderConfig | undefined;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

export function createNotifyService(deps: { config: NotifyConfig; outbox: OutboxRepo; secrets: Secrets; clock: Clock; log: Log }) {
  const { config, outbox, secrets, clock, log } = deps;
  const pending = new Set<Promise<void>>();
  const open = (sealed: string) => secrets.decrypt(sealed);

  async function toOutbox(realmId: string, channel: 'mail' | 'sms', recipient: string, subject: string, body: string): Promise<void> {
    await outbox.insertOutboxMessage({
      id: newId(),
      realm_id: realmId,
      channel,
      recipient: recipient.slice(0, 254),
      subject: secrets.encrypt(subject),
      body: secrets.encrypt(body),
      created_at: clock.now(),
    });
    // Never the body or subject: they carry codes and links (issue 8, A-33 "never logged").
    log.info({ outbox: { realmId, channel } }, 'message kept in the outbox (no provider configured)');
  }

  const outboxSms: SmsProvider = { name: 'outbox', send: (realmId, msg) => toOutbox(realmId, 'sms', msg.to, '', msg.text) };

  async function sendMail(realmId: string, realm: RealmDelivery, msg: MailMessage): Promise<void> {
    if (realm.email?.host) {
      const password = realm.email.password ? open(realm.email.password) : undefined;
      return sendViaRealmSmtp(realm.email, password, config.allowPrivateNetwork, msg);
    }
    if (config.smtpUrl) return sendViaSmtpUrl(config.smtpUrl, config.mailFrom, msg);
    return toOutbox(realmId, 'mail', msg.to, msg.subject, msg.text);
  }

  async function sendSms(realmId: string, realm: RealmDelivery, msg: SmsMessage): Promise<void> {
    const provider = realm.sms
      ? createSmsProvider(realm.sms, { outbox: outboxSms, allowPrivate: config.allowPrivateNetwork, open })
      : createSmsProvider(config.sms, { outbox: outboxSms, allowPrivate: config.allowPrivateNetwork, open: (s) => s });
    return provider.send(realmId, msg);
  }

  /**
   * Runs a delivery after the answer; a failure is logged (without the message), never thrown.
   * It starts on the next turn of the event loop: begun at once, its first synchronous
   * SQLite statements would run before the answer is written, and a known address would
   * answer measurably later than an unknown one (A-35; scripts/bench-timing.ts).
   */
  function defer(what: string, task: () => Promise<void>): void {
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((err: unknown) => log.warn({ err: (err as Error)?.message, what }, 'delivery failed'))
      .finally(() => pending.delete(p));
    pending.add(p);
  }

  async function settled(): Promise<void> {
    while (pending.size > 0) await Promise.all([...pending]);
  }

  return { sendMail, sendSms, defer, settled };
}

export type NotifyService = ReturnType<typeof createNotifyService>;
