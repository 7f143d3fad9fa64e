import type { Kysely } from 'kysely';

/**
 * The device CA (issue 13): CAs, managed keys, certificates (CA certificates too), issue
 * records and the newest CRL per CA. Uniques do the concurrency work: one CA per slot
 * (platform / realm / account), one key name per account, one serial per issuing CA (CA-01).
 * Realm and account rows go with their realm or account; the platform root has neither.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pki_cas')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('slot', 'varchar(140)', (c) => c.notNull().unique())
    .addColumn('realm_id', 'varchar(64)', (c) => c.references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('parent_id', 'varchar(64)')
    .addColumn('cert_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_algorithm', 'varchar(32)', (c) => c.notNull())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('description', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('default_issue_days', 'integer', (c) => c.notNull())
    .addColumn('max_issue_days', 'integer', (c) => c.notNull())
    .addColumn('crl_counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pki_cas_realm').on('pki_cas').columns(['realm_id', 'kind']).execute();

  await db.schema
    .createTable('pki_keys')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('name', 'varchar(32)', (c) => c.notNull())
    .addColumn('description', 'varchar(64)', (c) => c.notNull())
    .addColumn('algorithm', 'varchar(16)', (c) => c.notNull())
    .addColumn('strength', 'varchar(16)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pki_keys_account_name').on('pki_keys').columns(['account_id', 'name']).unique().execute();

  await db.schema
    .createTable('pki_certs')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('ca_id', 'varchar(64)')
    .addColumn('subject_ca_id', 'varchar(64)')
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('cn_type', 'varchar(16)')
    .addColumn('cn', 'varchar(255)', (c) => c.notNull())
    .addColumn('san', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_id', 'varchar(64)')
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('issuer', 'varchar(1024)', (c) => c.notNull())
    .addColumn('subject', 'varchar(1024)', (c) => c.notNull())
    .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
    .addColumn('ours', 'integer', (c) => c.notNull())
    .addColumn('superseded', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('cert_pem', 'text', (c) => c.notNull())
    .addColumn('not_before', 'bigint', (c) => c.notNull())
    .addColumn('not_after', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('revoke_reason', 'varchar(32)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pki_certs_ca_sn').on('pki_certs').columns(['ca_id', 'sn']).unique().execute();
  await db.schema.createIndex('pki_certs_account').on('pki_certs').columns(['account_id', 'created_at']).execute();
  await db.schema.createIndex('pki_certs_realm_expiry').on('pki_certs').columns(['realm_id', 'not_after']).execute();
  await db.schema.createIndex('pki_certs_key').on('pki_certs').column('key_id').execute();

  await db.schema
    .createTable('pki_records')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('cert_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('cn', 'varchar(255)', (c) => c.notNull())
    .addColumn('actor_id', 'varchar(64)')
    .addColumn('actor_name', 'varchar(255)')
    .addColumn('reason', 'varchar(32)')
    .addColumn('at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('pki_records_account').on('pki_records').columns(['account_id', 'at']).execute();
  await db.schema.createIndex('pki_records_cert').on('pki_records').column('cert_id').execute();

  await db.schema
    .createTable('pki_crls')
    .addColumn('ca_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('crl_number', 'bigint', (c) => c.notNull())
    .addColumn('this_update', 'bigint', (c) => c.notNull())
    .addColumn('next_update', 'bigint', (c) => c.notNull())
    .addColumn('der', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['pki_crls', 'pki_records', 'pki_certs', 'pki_keys', 'pki_cas']) await db.schema.dropTable(t).execute();
}
