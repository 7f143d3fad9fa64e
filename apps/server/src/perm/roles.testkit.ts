/** Helpers of the perm suites: accounts holding roles, role bodies, audit rows and table snapshots. */
import crypto from 'node:crypto';
import { sql } from 'kysely';
import type { Harness } from '../test/harness.js';
import { bindRole, createPerson, tokenFor, type TestAccount } from '../test/kit.js';

export const rolesUrl = (realmId: string) => `/api/perm/realms/${realmId}/roles`;
export const roleUrl = (realmId: string, roleId: string) => `/api/perm/realms/${realmId}/roles/${roleId}`;
export const assignmentsUrl = (realmId: string) => `/api/perm/realms/${realmId}/assignments`;
export const assignmentUrl = (realmId: string, accountId: string, roleId: string) => `/api/perm/realms/${realmId}/assignments/${accountId}/${roleId}`;

/** A person of `realmId` holding `roles` there (none: only its own pages), with its token. */
export async function holder(h: Harness, realmId: string, ...roles: string[]): Promise<TestAccount & { token: string }> {
  const person = await createPerson(h, { realmId });
  for (const role of roles) await bindRole(h, person, role, realmId);
  return { ...person, token: await tokenFor(h, person) };
}

/** A valid custom-role body with a fresh name. */
export function roleBody(permissions: { permissionId: string; actions: string[] }[] = [{ permissionId: 'person', actions: ['query', 'get'] }]) {
  return { name: `r${crypto.randomBytes(4).toString('hex')}`, description: 'a test role', permissions };
}

/** The audit rows of a realm with this action, oldest first. */
export async function auditRows(h: Harness, realmId: string, action: string) {
  const rows = await h.dbh.db.selectFrom('audit_events').selectAll().where('realm_id', '=', realmId).where('action', '=', action).orderBy('at').execute();
  return rows.map((r) => ({ ...r, detail: JSON.parse(r.detail) as Record<string, unknown> }));
}

/** Every table of the database by name (the harness's own schema on PostgreSQL). */
export async function tableNames(h: Harness): Promise<string[]> {
  if (h.dialect === 'sqlite') {
    const rows = await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(h.dbh.db);
    return rows.rows.map((r) => r.name).sort();
  }
  const rows = await sql<{
    name: string;
  }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(h.dbh.db);
  return rows.rows.map((r) => r.name).sort();
}

/**
 * Every table's row count and a hash of its rows (in a fixed order, values as text): two equal
 * snapshots mean nothing was written in between. `ignore` names columns that may move without
 * anything changing that a user manages (a session's last-seen time).
 */
export async function snapshot(
  h: Harness,
  ignore: Readonly<Record<string, readonly string[]>> = { sessions: ['last_seen_at'] },
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of await tableNames(h)) {
    const skip = ignore[table] ?? [];
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(h.dbh.db);
    const lines = rows.rows
      .map((r) =>
        JSON.stringify(
          Object.keys(r)
            .filter((k) => !skip.includes(k))
            .sort()
            .map((k) => [k, r[k] === null ? null : String(r[k])]),
        ),
      )
      .sort();
    out[table] = `${lines.length}:${crypto.createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`;
  }
  return out;
}

/** The columns of a table. */
async function columnsOf(h: Harness, table: string): Promise<string[]> {
  if (h.dialect === 'sqlite') return (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(h.dbh.db)).rows.map((r) => r.name);
  const rows = await sql<{
    name: string;
  }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(h.dbh.db);
  return rows.rows.map((r) => r.name);
}

/**
 * Every row that belongs to a realm other than `realmId` (tables with a realm_id column, and
 * the other realms' own rows), one text per row: a request acting in `realmId` must leave
 * this set as it was (A-39, A-40).
 */
export async function rowsOutsideRealm(h: Harness, realmId: string): Promise<Set<string>> {
  const out = new Set<string>();
  for (const table of await tableNames(h)) {
    const cols = await columnsOf(h, table);
    const key = table === 'realms' ? 'id' : cols.includes('realm_id') ? 'realm_id' : undefined;
    if (!key) continue;
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(table)} where ${sql.ref(key)} is null or ${sql.ref(key)} <> ${realmId}`.execute(
      h.dbh.db,
    );
    for (const r of rows.rows) {
      const fields = Object.keys(r)
        .filter((k) => !(table === 'sessions' && k === 'last_seen_at'))
        .sort()
        .map((k) => [k, r[k] === null ? null : String(r[k])]);
      out.add(`${table}:${JSON.stringify(fields)}`);
    }
  }
  return out;
}
