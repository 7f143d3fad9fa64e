/**
 * Mail-link codes (SPEC §5 "exactly 24 digits/letters"; DESIGN.md §4): activation (24 h,
 * SPEC §4) and password reset. Stored as keyed hashes under a per-kind purpose, so a reset
 * code is never accepted as anything else; consumed by one conditional update.
 */
import { LIMITS } from '@umbo/contracts';
import type { Clock } from '../platform/clock.js';
import { newId, randomString, type Secrets } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import { fail } from '../platform/errors.js';
import { MAIL_LINK_DEFAULTS } from './defaults.js';
import type { MailLinkKind, MailLinkRepo } from './mail-links.repo.js';

export function createMailLinkService(deps: { repo: MailLinkRepo; secrets: Secrets; clock: Clock }) {
  const { repo, secrets, clock } = deps;
  const hashOf = (kind: MailLinkKind, code: string) => secrets.hash(`mail-link:${kind}`, code);
  const ttlOf = (kind: MailLinkKind) => (kind === 'activate' ? MAIL_LINK_DEFAULTS.activateTtlMs : MAIL_LINK_DEFAULTS.resetTtlMs);

  /** Creates a code (in the caller's transaction, when given); older unused codes of that kind go. */
  async function create(realmId: string, kind: MailLinkKind, accountId: string, trx?: Db): Promise<{ code: string; expiresAt: number }> {
    // 24 base62 characters ≈ 143 bits (AS-12: guess probability ≤ 2^-128).
    const code = randomString(LIMITS.mailCodeLength);
    const now = clock.now();
    const expiresAt = now + ttlOf(kind);
    await repo.deleteUnusedMailLinkCodes(realmId, accountId, kind, trx);
    await repo.insertMailLinkCode(
      { id: newId(), realm_id: realmId, kind, code_hash: hashOf(kind, code), account_id: accountId, created_at: now, expires_at: expiresAt },
      trx,
    );
    return { code, expiresAt };
  }

  /** Consumes a code; returns its account id, or throws 4004 (expired) / 4006 (anything else). */
  async function consume(realmId: string, kind: MailLinkKind, code: string, trx?: Db): Promise<string> {
    const now = clock.now();
    const codeHash = hashOf(kind, code);
    const accountId = await repo.consumeMailLinkCode(realmId, kind, codeHash, now, trx);
    if (accountId) return accountId;
    const row = await repo.findMailLinkCode(realmId, kind, codeHash, trx);
    if (row && row.used_at === null && row.expires_at <= now) throw fail('CODE_EXPIRED');
    throw fail('CODE_INVALID');
  }

  return { create, consume };
}

export type MailLinkService = ReturnType<typeof createMailLinkService>;
