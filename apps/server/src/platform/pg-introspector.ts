/**
 * Kysely's migrator asks the introspector whether its two tables exist. The stock PostgreSQL
 * introspector reads every column of every schema on the server and calls name-based catalog
 * functions on each (has_schema_privilege, pg_get_serial_sequence): on a shared server, a
 * schema dropped by someone else mid-query fails our start with "schema … does not exist",
 * and a server with many schemas makes start slow. The migrator needs table names only, so
 * this one reads the tables of the schemas on our search_path, by oid, and nothing else.
 */
import { PostgresDialect, sql, type DatabaseIntrospector, type DatabaseMetadata, type Kysely, type TableMetadata } from 'kysely';

interface TableRow {
  schema: string;
  table: string;
  kind: string;
}

class SearchPathIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<unknown>) {}

  async getSchemas() {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<TableRow>`
      select ns.nspname as schema, c.relname as table, c.relkind as kind
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where c.relkind in ('r', 'v', 'p') and ns.nspname = any (current_schemas(false))
      order by ns.nspname, c.relname`.execute(this.db);
    // Columns are left empty: nothing here reads them, and reading them is the costly part.
    return rows.map((r) => ({ name: r.table, schema: r.schema, isView: r.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}

export class SearchPathPostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SearchPathIntrospector(db);
  }
}
