/** The realms table ("domains" in the console) and its branding; realms.repo.ts is their only writer. */

export interface RealmTable {
  id: string;
  name: string;
  description: string;
  /** JSON: login/registration methods, regions, mail, captcha policy, … (SPEC §3) */
  settings: string;
  created_at: number;
  updated_at: number;
}

/** A realm's uploaded logo and icon (SPEC §5), served publicly to its sign-in page. */
export interface RealmBrandingTable {
  realm_id: string;
  kind: 'logo' | 'icon';
  content_type: 'image/png' | 'image/jpeg';
  /** base64 of the checked bytes (≤ 16 KB): text is portable across SQLite and PostgreSQL */
  data: string;
  updated_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    realms: RealmTable;
    realm_branding: RealmBrandingTable;
  }
}
