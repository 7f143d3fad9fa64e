/**
 * The auth epoch (migration 0021): one row (id 1) whose version database triggers bump on
 * every change the guard decides on. No code writes it; auth-cache.repo.ts reads it.
 */

export interface AuthEpochTable {
  id: number;
  version: number;
}

declare module '../platform/db.js' {
  interface Database {
    auth_epoch: AuthEpochTable;
  }
}
