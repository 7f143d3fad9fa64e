/** The realms table ("domains" in the console); realms.repo.ts is its only writer. */

export interface RealmTable {
  id: string;
  name: string;
  description: string;
  /** JSON: login/registration methods, regions, mail, captcha policy, … (SPEC §3) */
  settings: string;
  created_at: number;
  updated_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    realms: RealmTable;
  }
}
