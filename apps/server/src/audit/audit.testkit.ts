/**
 * Helpers of the audit suites (test/kit.ts stays the shared kit): the rows of a realm's trail
 * as stored, and events as the API answers them.
 */
import type { Harness } from '../test/harness.js';
import type { AuditRow } from './audit.repo.js';

/** Every stored event of a realm, newest first (the table itself, not the API). */
export async function storedEvents(h: Harness, realmId: string): Promise<AuditRow[]> {
  return h.ctx.repos.audit.listAuditEvents({ realmId, limit: 10_000 });
}

/** Stored events of a realm with this action, newest first. */
export async function eventsNamed(h: Harness, realmId: string, action: string): Promise<AuditRow[]> {
  return (await storedEvents(h, realmId)).filter((r) => r.action === action);
}

/** The whole stored trail of a realm as one text, to search for what must never be in it. */
export async function trailText(h: Harness, realmId: string): Promise<string> {
  return JSON.stringify(await storedEvents(h, realmId));
}

export const detailOf = (r: AuditRow) => JSON.parse(r.detail) as Record<string, unknown>;
