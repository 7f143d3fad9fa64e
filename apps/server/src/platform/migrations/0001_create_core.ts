import type { Kysely } from 'kysely';

/** Realms, accounts, roles and their bindings, sessions, job leases. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('realms')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('name', 'varchar(255)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('accounts')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('owner_id', 'varchar(64)', (c) => c.references('accounts.id').onDelete('cascade'))
    .addColumn('username', 'varchar(120)', (c) => c.notNull())
    .addColumn('username_norm', 'varchar(120)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)')
    .addColumn('email_norm', 'varchar(254)')
    .addColumn('phone', 'varchar(32)')
    .addColumn('password_hash', 'text')
    .addColumn('avatar', 'varchar(1024)', (c) => c.notNull().defaultTo(''))
    .addColumn('disabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('activated', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('force_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('regist_area', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('last_login_at', 'bigint')
    .addColumn('last_login_area', 'varchar(32)', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('accounts_realm_username').on('accounts').columns(['realm_id', 'username_norm']).unique().execute();
  await db.schema.createIndex('accounts_realm_email').on('accounts').columns(['realm_id', 'email_norm']).unique().execute();
  await db.schema.createIndex('accounts_realm_phone').on('accounts').columns(['realm_id', 'phone']).unique().execute();
  await db.schema.createIndex('accounts_owner').on('accounts').column('owner_id').execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.references('realms.id').onDelete('cascade'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)', (c) => c.notNull().defaultTo(''))
    .addColumn('permissions', 'text', (c) => c.notNull())
    .addColumn('builtin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('role_bindings')
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('role_id', 'varchar(64)', (c) => c.notNull().references('roles.id').onDelete('cascade'))
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('role_bindings_pk', ['account_id', 'role_id', 'realm_id'])
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('realm_id', 'varchar(64)', (c) => c.notNull().references('realms.id').onDelete('cascade'))
    .addColumn('account_id', 'varchar(64)', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(128)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .addColumn('revoked_at', 'bigint')
    .addColumn('ip', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'varchar(512)', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(64)', (c) => c.notNull())
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('last_run_at', 'bigint')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const t of ['job_leases', 'sessions', 'role_bindings', 'roles', 'accounts', 'realms']) {
    await db.schema.dropTable(t).execute();
  }
}
