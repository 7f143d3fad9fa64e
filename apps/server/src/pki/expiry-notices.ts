/**
 * Certificate expiry notices (issue 13): the owning account is mailed when one of its
 * certificates (device, service, or its own account CA) has `certExpiryNoticeDays` days or
 * fewer left — default 30 and 7 — once per certificate and threshold.
 *
 * "Once" is held by the database, not by the job lease alone: queueing a notice IS inserting
 * its (certificate, threshold) row, unique, in one transaction with the rows of the larger
 * thresholds it overtook; sending first moves the row pending → sending with a conditional
 * update, so of several processes (or a retry) exactly one sends. A delivery that fails goes
 * back to pending (up to MAX_ATTEMPTS); a process that dies while sending leaves the row in
 * `sending` and the notice is not repeated: at most once, never twice.
 *
 * A certificate revoked, or under a revoked CA (status caRevoked), gets none: no relying party
 * accepts it any more, so its end is no news (certs.repo's caRevoked, also at send time).
 *
 * The mail names the certificate (CN, serial) and its end date; never a key, never the PEM.
 * An owner without an email gets no notice (state noEmail). The account's chosen language,
 * else the product's default language (DEFAULT_ACCOUNT_SETTINGS).
 */
import { CERT_EXPIRY_NOTICE_DEFAULT, type CertStatus, type Locale } from '@umbo/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Account } from '../accounts/accounts.repo.js';
import type { StoredSettings } from '../me/me.settings.js';
import type { NotifyService, RealmDelivery } from '../notify/notify.service.js';
import { noticeTime } from '../notify/templates.js';
import type { MailMessage } from '../notify/types.js';
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import type { Transact } from '../platform/db.js';
import { t } from '../platform/i18n.js';
import { DAY_MS } from './defaults.js';
import type { ExpiringCert, ExpiryNoticeRepo, NoticeToSend } from './expiry-notices.repo.js';
import { statusOfRow } from './status.js';

export const MAX_ATTEMPTS = 5;
/** The largest threshold a realm may set (contracts: 1–365): the widest window scanned. */
const MAX_THRESHOLD_DAYS = 365;
const PAGE = 200;
/** Bounds one run: a backlog larger than this is worked off by the next runs. */
const MAX_PAGES = 50;
/** The statuses (status.ts) in which a queued notice is no longer sent. */
const GONE = new Set<CertStatus>(['revoked', 'caRevoked', 'expired']);

export interface ExpiryNoticeDeps {
  repo: ExpiryNoticeRepo;
  transact: Transact;
  notify: Pick<NotifyService, 'sendMail'>;
  /** the realm's settings: thresholds and its own mail server */
  settingsOf(realmId: string): Promise<RealmDelivery & { certExpiryNoticeDays?: number[] | undefined }>;
  preferencesOf(account: Pick<Account, 'id' | 'realm_id'>): Promise<StoredSettings>;
  siteTitle: string;
  clock: Clock;
  log?: Pick<FastifyBaseLogger, 'warn'> | undefined;
}

/** A realm's thresholds, largest first, each once; a damaged setting falls back to the default. */
export function thresholdsOf(days: unknown): number[] {
  const ok = Array.isArray(days) ? days.filter((d): d is number => Number.isInteger(d) && d >= 1 && d <= MAX_THRESHOLD_DAYS) : [];
  const list = ok.length ? ok : [...CERT_EXPIRY_NOTICE_DEFAULT];
  return [...new Set(list)].sort((a, b) => b - a);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface ExpiryMailInput {
  locale: Locale;
  site: string;
  username: string;
  cn: string;
  sn: string;
  notAfter: number;
  daysLeft: number;
}

/** The notice: which certificate, its serial, when it ends. Nothing secret is ever in reach here. */
export function certExpiryMail(to: string, i: ExpiryMailInput): MailMessage {
  const vars = { username: i.username, site: i.site, cn: i.cn, sn: i.sn, date: noticeTime(i.locale, i.notAfter), days: i.daysLeft };
  const text = `${t(i.locale, 'notify.cert_expiry_text', vars)}\n\n${t(i.locale, 'notify.footer', vars)}`;
  const dir = i.locale === 'ar' ? 'rtl' : 'ltr';
  const body = text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');
  return {
    to,
    subject: t(i.locale, 'notify.cert_expiry_subject', vars),
    text,
    html: `<!doctype html><html lang="${i.locale}" dir="${dir}"><body style="font-family:sans-serif;line-height:1.5">${body}</body></html>`,
  };
}

export function createExpiryNotices(deps: ExpiryNoticeDeps) {
  const { repo, transact, clock } = deps;

  /** Queues the notice of the smallest threshold now due; the larger ones it overtook are marked skipped. */
  async function queue(c: ExpiringCert, due: number[], now: number): Promise<boolean> {
    const smallest = Math.min(...due);
    return transact(async (trx) => {
      let queued = false;
      for (const d of due) {
        const row = {
          id: newId(),
          cert_id: c.id,
          threshold_days: d,
          realm_id: c.realm_id,
          account_id: c.account_id,
          attempts: 0,
          created_at: now,
          updated_at: now,
        };
        const made = await repo.insertOnce({ ...row, state: d === smallest ? 'pending' : 'skipped' }, trx);
        if (d === smallest) queued = made;
      }
      return queued;
    });
  }

  /** Finds certificates that crossed a threshold and queues their notice. Returns how many were queued. */
  async function scan(): Promise<number> {
    const now = clock.now();
    let queued = 0;
    for (const realmId of await repo.realmsWithExpiring(now, now + MAX_THRESHOLD_DAYS * DAY_MS)) {
      let thresholds: number[];
      try {
        thresholds = thresholdsOf((await deps.settingsOf(realmId)).certExpiryNoticeDays);
      } catch {
        continue; // the realm went away meanwhile
      }
      // Band of threshold d: ending in (now + next smaller threshold, now + d]; d is the smallest due there.
      for (const [i, d] of thresholds.entries()) {
        const from = now + (thresholds[i + 1] ?? 0) * DAY_MS;
        for (let page = 0; page < MAX_PAGES; page++) {
          const rows = await repo.expiringWithout(realmId, from, now + d * DAY_MS, d, PAGE);
          for (const c of rows) {
            const due = thresholds.filter((x) => c.not_after - now <= x * DAY_MS);
            if (await queue(c, due, now)) queued++;
          }
          if (rows.length < PAGE) break;
        }
      }
    }
    return queued;
  }

  /** Sends one queued notice if this process wins it; the state it ends in. */
  async function sendOne(n: NoticeToSend): Promise<string | undefined> {
    const now = clock.now();
    if (!(await repo.move(n.id, 'pending', 'sending', now, { countAttempt: true }))) return undefined;
    const finish = async (state: string) => (await repo.move(n.id, 'sending', state, clock.now()), state);
    try {
      const cert = await repo.findCert(n.cert_id);
      // Revoked (itself or a CA above it), replaced or already ended since it was queued: nothing useful to say.
      if (!cert || cert.superseded !== 0 || GONE.has(statusOfRow(cert, now))) return await finish('skipped');
      const owner = n.realm_id && n.account_id ? await repo.findOwner(n.realm_id, n.account_id) : undefined;
      if (!owner?.email) return await finish('noEmail');
      const [prefs, realm] = await Promise.all([deps.preferencesOf(owner), deps.settingsOf(owner.realm_id)]);
      const mail = certExpiryMail(owner.email, {
        locale: prefs.language ?? prefs.settings.language,
        site: deps.siteTitle,
        username: owner.username,
        cn: cert.cn,
        sn: cert.sn,
        notAfter: Number(cert.not_after),
        daysLeft: Math.max(1, Math.ceil((Number(cert.not_after) - now) / DAY_MS)),
      });
      await deps.notify.sendMail(owner.realm_id, realm, mail);
      return await finish('sent');
    } catch (err) {
      // Never the message: only which notice and why.
      deps.log?.warn({ err: (err as Error)?.message, notice: n.id }, 'certificate expiry notice not delivered');
      return finish(n.attempts + 1 >= MAX_ATTEMPTS ? 'failed' : 'pending');
    }
  }

  /** Sends the queued notices. Returns how many this call sent. */
  async function deliver(): Promise<number> {
    let sent = 0;
    const tried = new Set<string>();
    for (let page = 0; page < MAX_PAGES; page++) {
      // A notice put back after a failure waits for the next run, not this loop.
      const rows = (await repo.pending(PAGE)).filter((r) => !tried.has(r.id));
      if (!rows.length) break;
      for (const n of rows) {
        tried.add(n.id);
        if ((await sendOne(n)) === 'sent') sent++;
      }
    }
    return sent;
  }

  return {
    scan,
    deliver,
    /** The job: queue what crossed a threshold, then send. */
    async run(): Promise<{ queued: number; sent: number }> {
      const queued = await scan();
      return { queued, sent: await deliver() };
    },
  };
}

export type ExpiryNotices = ReturnType<typeof createExpiryNotices>;
