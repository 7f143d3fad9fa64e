/** The signed-in user's own preferences and uploaded avatar; me.repo.ts is the only writer of both. */

/** SPEC §2 settings custom/notification, JSON. */
export interface AccountSettingsTable {
  account_id: string;
  realm_id: string;
  data: string;
  updated_at: number;
}

/** An uploaded avatar (SPEC §5: jpeg/png ≤ 4 KB), base64. */
export interface AccountAvatarTable {
  id: string;
  realm_id: string;
  account_id: string;
  mime: string;
  data: string;
  created_at: number;
}

declare module '../platform/db.js' {
  interface Database {
    account_settings: AccountSettingsTable;
    account_avatars: AccountAvatarTable;
  }
}
