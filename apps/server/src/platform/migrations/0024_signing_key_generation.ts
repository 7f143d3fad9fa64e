/**
 * Signing keys (issue 12, oauth/keys): a generation number per realm and algorithm, unique.
 * Two server instances that create a realm's first key, or rotate it, at the same moment both
 * try the same next generation: one insert wins, the other re-reads and uses the winner's key,
 * so a realm never gets two keys by accident.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('oauth_signing_keys')
    .addColumn('generation', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('oauth_signing_keys_generation').on('oauth_signing_keys').columns(['realm_id', 'alg', 'generation']).unique().execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('oauth_signing_keys_generation').execute();
  await db.schema.alterTable('oauth_signing_keys').dropColumn('generation').execute();
}
