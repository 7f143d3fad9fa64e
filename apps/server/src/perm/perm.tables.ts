/** Roles and their bindings to accounts; roles.repo.ts is the tables' only writer. */

export interface RoleTable {
  id: string;
  /** null for platform roles (admin), else the realm the role belongs to */
  realm_id: string | null;
  name: string;
  description: string;
  /** JSON: [{permissionId, actions: [...]}] */
  permissions: string;
  builtin: number;
  created_at: number;
}

export interface RoleBindingTable {
  account_id: string;
  role_id: string;
  /** realm the binding is scoped to; platform admin binds to 'master' and reaches all */
  realm_id: string;
  created_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    roles: RoleTable;
    role_bindings: RoleBindingTable;
  }
}
