/**
 * A realm's logo and icon (SPEC §5: jpeg/png, at most 4 KB / 16 KB), uploaded by its
 * administrators and served publicly to its sign-in page; and the "send test mail" button of
 * the email config group. Both change or use the realm's settings record, so both live here
 * beside it (issue 11).
 */
import { LIMITS, realmPaths, type BrandingKind } from '@umbo/contracts';
import type { AuditService } from '../audit/audit.service.js';
import type { NotifyService } from '../notify/notify.service.js';
import { OutboundRefused } from '../notify/outbound.js';
import type { Clock } from '../platform/clock.js';
import type { Transact } from '../platform/db.js';
import { assertThat, fail } from '../platform/errors.js';
import { parseStoredSettings, readRealmSettings } from './realm-settings.js';
import type { Caller } from './realm-settings.service.js';
import type { RealmBranding, RealmRepo } from './realms.repo.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export const BRANDING_MAX_BYTES: Record<BrandingKind, number> = { logo: LIMITS.logoBytes, icon: LIMITS.iconBytes };
const FIELD: Record<BrandingKind, 'logo_img_url' | 'icon_img_url'> = { logo: 'logo_img_url', icon: 'icon_img_url' };
const DATA_URL = /^data:(image\/(?:png|jpe?g)|application\/octet-stream|);base64,([A-Za-z0-9+/]+={0,2})$/;

/** The type the bytes themselves say (the name or the declared type are not believed: A-41). */
export function sniffImage(bytes: Buffer): RealmBranding['content_type'] | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return undefined;
}

export interface TestMailDeps {
  notify: Pick<NotifyService, 'sendMail'>;
  /** a global SMTP_URL is configured (otherwise mail without a realm server goes to the outbox) */
  globalSmtp: boolean;
  /** the message in the caller's language */
  text(locale: string, key: 'test_mail_subject' | 'test_mail_body', vars: Record<string, string>): string;
}

export function createRealmBrandingService(deps: { realms: RealmRepo; clock: Clock; transact: Transact; audit: AuditService; mail: TestMailDeps }) {
  const { realms, clock, transact, audit } = deps;

  async function upload(realmId: string, kind: BrandingKind, dataUrl: string, caller: Caller): Promise<{ url: string }> {
    const max = BRANDING_MAX_BYTES[kind];
    const m = DATA_URL.exec(dataUrl);
    const bytes = m ? Buffer.from(m[2]!, 'base64') : Buffer.alloc(0);
    const type = sniffImage(bytes);
    if (!m || !type || bytes.length > max) throw fail('IMAGE_REJECTED', { kind, maxBytes: max, reason: !type ? 'png_or_jpeg' : 'too_large' });
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    const now = clock.now();
    const url = `${realmPaths.branding(realmId, kind)}?v=${now}`;
    await transact(async (trx) => {
      await realms.putBranding({ realm_id: realmId, kind, content_type: type, data: bytes.toString('base64'), updated_at: now }, trx);
      await setImageField(realmId, kind, url, caller, trx);
    });
    return { url };
  }

  async function remove(realmId: string, kind: BrandingKind, caller: Caller): Promise<void> {
    assertThat(await realms.findRealmById(realmId), 'NOT_FOUND');
    await transact(async (trx) => {
      await realms.deleteBranding(realmId, kind, trx);
      await setImageField(realmId, kind, '', caller, trx);
    });
  }

  /** The settings field the sign-in page reads, in the upload's transaction (compare-and-set). */
  async function setImageField(realmId: string, kind: BrandingKind, url: string, caller: Caller, trx: Parameters<Parameters<Transact>[0]>[0]) {
    const realm = await realms.findRealmById(realmId, trx);
    assertThat(realm, 'NOT_FOUND');
    const next = { ...parseStoredSettings(realm.settings), [FIELD[kind]]: url };
    if (!(await realms.updateRealmSettings(realmId, realm.settings, JSON.stringify(next), clock.now(), trx))) throw fail('RETRY_LATER');
    await audit.record(
      {
        realmId,
        actor: caller.actor,
        action: 'realm.settings',
        target: { type: 'realm', id: realmId, name: realm.name },
        result: 'ok',
        request: caller.request,
        changes: [FIELD[kind]],
      },
      trx,
    );
  }

  /** The picture for the public sign-in page; 1004 when there is none. */
  async function image(realmId: string, kind: BrandingKind): Promise<{ type: string; bytes: Buffer; updatedAt: number }> {
    const row = await realms.findBranding(realmId, kind);
    assertThat(row, 'NOT_FOUND');
    return { type: row.content_type, bytes: Buffer.from(row.data, 'base64'), updatedAt: Number(row.updated_at) };
  }

  /**
   * Sends a test mail now (not deferred: the administrator waits for the answer) through what
   * the realm's mail would use: its own SMTP (through the outbound guard, A-37), else the
   * global SMTP_URL, else the outbox. The failure reason is a category only: a server's answer
   * could echo credentials.
   */
  async function testMail(realmId: string, to: string, locale: string, caller: Caller): Promise<{ via: 'realm' | 'global' | 'outbox' }> {
    const realm = await realms.findRealmById(realmId);
    assertThat(realm, 'NOT_FOUND');
    const settings = readRealmSettings(realm.settings);
    const via = settings.email?.host ? 'realm' : deps.mail.globalSmtp ? 'global' : 'outbox';
    const vars = { realm: realmId, domain: realm.name };
    const text = deps.mail.text(locale, 'test_mail_body', vars);
    const event = {
      realmId,
      actor: caller.actor,
      action: 'realm.test_mail',
      target: { type: 'realm', id: realmId, name: realm.name },
      request: caller.request,
    };
    try {
      await deps.mail.notify.sendMail(
        realmId,
        { email: settings.email },
        { to, subject: deps.mail.text(locale, 'test_mail_subject', vars), text, html: `<p>${escapeHtml(text)}</p>` },
      );
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const reason = err instanceof OutboundRefused ? 'address_refused' : code === 'ENOTFOUND' || code === 'EAI_AGAIN' ? 'host_not_found' : 'delivery_failed';
      await audit.record({ ...event, result: 'fail', detail: { via, reason } });
      throw fail('MAIL_FAILED', { via, reason });
    }
    await audit.record({ ...event, result: 'ok', detail: { via } });
    return { via };
  }

  return { upload, remove, image, testMail };
}

export type RealmBrandingService = ReturnType<typeof createRealmBrandingService>;
