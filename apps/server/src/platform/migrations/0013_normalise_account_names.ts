/**
 * Issue 8: user names and email addresses are compared in NFKC + lower case (accounts.repo.ts
 * normaliseUsername / normaliseEmail). Rows written before were lower-cased only; bring their
 * comparison columns into the new form. A row whose new form another account already holds
 * (a look-alike registered twice) keeps its old form: the first account keeps the name.
 */
import type { Kysely } from 'kysely';

/** accounts.repo.ts's fold as it was written for this migration (a later change must not alter it). */
const fold = (value: string): string => value.normalize('NFKC').toLowerCase().normalize('NFKC').trim();

// The schema as it was then, not today's types (STYLE: migrations never change once released).
export async function up(db: Kysely<any>): Promise<void> {
  const rows: { id: string; realm_id: string; username: string; username_norm: string; email: string | null; email_norm: string | null }[] = await db
    .selectFrom('accounts')
    .select(['id', 'realm_id', 'username', 'username_norm', 'email', 'email_norm'])
    .execute();
  const taken = new Set(rows.flatMap((r) => [`u:${r.realm_id}:${r.username_norm}`, `e:${r.realm_id}:${r.email_norm ?? ''}`]));
  for (const r of rows) {
    // Service accounts are `owner/sub`: both halves fold the same way.
    const username_norm = fold(r.username_norm);
    const email_norm = r.email ? fold(r.email) : null;
    const patch: Record<string, string | null> = {};
    if (username_norm !== r.username_norm && !taken.has(`u:${r.realm_id}:${username_norm}`)) {
      patch.username_norm = username_norm;
      taken.add(`u:${r.realm_id}:${username_norm}`);
    }
    if (email_norm !== r.email_norm && !taken.has(`e:${r.realm_id}:${email_norm ?? ''}`)) {
      patch.email_norm = email_norm;
      taken.add(`e:${r.realm_id}:${email_norm ?? ''}`);
    }
    if (Object.keys(patch).length) await db.updateTable('accounts').set(patch).where('realm_id', '=', r.realm_id).where('id', '=', r.id).execute();
  }
}

export async function down(): Promise<void> {
  // The old form is not kept; lower-cased NFKC forms still work with the old code's lookups.
}
