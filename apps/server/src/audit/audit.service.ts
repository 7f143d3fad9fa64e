/**
 * The audit trail (issue 11): who did what, where, to whom, with what result. Every
 * administrative change records its event in the change's own transaction (pass `trx`), so
 * there is no change without its record and no record of a change that rolled back. What is
 * stored is chosen here once: the NAMES of changed fields, never values; small non-secret
 * facts; text fields cut to their column sizes.
 */
import type { Clock } from '../platform/clock.js';
import { newId } from '../platform/crypto.js';
import type { Db } from '../platform/db.js';
import type { AuditKey, AuditQuery, AuditRepo, AuditRow } from './audit.repo.js';
import { csvLine } from '../platform/csv.js';

export interface AuditActor {
  id: string;
  name: string;
}

export interface AuditInput {
  /** the realm the event belongs to */
  realmId: string;
  /** null: anonymous (e.g. a failed sign-in for a name that matched nothing) or the system */
  actor: AuditActor | null;
  /** dotted, e.g. 'realm.create', 'account.disable', 'role.bind', 'signin.password' */
  action: string;
  target?: { type: string; id: string; name: string } | undefined;
  result: 'ok' | 'fail';
  request?: { ip: string; userAgent: string } | undefined;
  /** names of the fields that changed: never their values */
  changes?: readonly string[] | undefined;
  /** small, non-secret facts ({count: 3}, {reason: 'bad_password'}) */
  detail?: Readonly<Record<string, string | number | boolean>> | undefined;
  /**
   * The realm's settings as the recording flow read them at its start (a sign-in): taps that
   * need them (federation/bigdata) use these instead of reading them again. Not stored.
   */
  realmSettings?: RealmSettingsSeen | undefined;
}

/**
 * The part of a realm's settings the audit's taps look at, as a shape: audit/ sits below
 * realms/ and does not import it (realms/realm-settings.ts StoredRealmSettings fits it).
 */
export interface RealmSettingsSeen {
  backend_type: string;
  backend?: { type: string; category?: string } | undefined;
}

export interface AuditEvent {
  id: string;
  at: number;
  realmId: string;
  actor: AuditActor | null;
  action: string;
  target: { type: string; id: string | null; name: string } | null;
  ip: string;
  userAgent: string;
  result: 'ok' | 'fail';
  changes: string[];
  detail: Record<string, string | number | boolean>;
}

const FIELD_NAME = /^[A-Za-z0-9_.[\]-]{1,64}$/;
const cut = (v: string, n: number) => (v.length > n ? v.slice(0, n) : v);

function detailJson(e: AuditInput): string {
  const out: Record<string, unknown> = {};
  if (e.changes?.length) out.changes = e.changes.filter((c) => FIELD_NAME.test(c)).slice(0, 100);
  for (const [k, v] of Object.entries(e.detail ?? {})) {
    if (k === 'changes' || !FIELD_NAME.test(k)) continue;
    out[k] = typeof v === 'string' ? cut(v, 200) : v;
  }
  return JSON.stringify(out);
}

/** A stored row as the API answers it. */
export function toEvent(r: AuditRow): AuditEvent {
  let detail: Record<string, string | number | boolean> = {};
  let changes: string[] = [];
  try {
    const parsed = JSON.parse(r.detail) as Record<string, unknown>;
    if (Array.isArray(parsed.changes)) changes = parsed.changes.map(String);
    for (const [k, v] of Object.entries(parsed)) if (k !== 'changes' && ['string', 'number', 'boolean'].includes(typeof v)) detail[k] = v as string;
  } catch {
    detail = {};
  }
  return {
    id: r.id,
    at: Number(r.at),
    realmId: r.realm_id,
    actor: r.actor_id === null && r.actor_name === '' ? null : { id: r.actor_id ?? '', name: r.actor_name },
    action: r.action,
    target: r.target_type ? { type: r.target_type, id: r.target_id, name: r.target_name } : null,
    ip: r.ip,
    userAgent: r.user_agent,
    result: r.result,
    changes,
    detail,
  };
}

/** An opaque cursor for a key (base64url of "at:id"), and back; a malformed cursor reads as none. */
export const encodeCursor = (k: AuditKey): string => Buffer.from(`${k.at}:${k.id}`).toString('base64url');
export function decodeCursor(c: string | undefined): AuditKey | undefined {
  if (!c) return undefined;
  const m = /^(\d{1,16}):([A-Za-z0-9_-]{1,40})$/.exec(Buffer.from(c, 'base64url').toString());
  return m ? { at: Number(m[1]), id: m[2]! } : undefined;
}

export function createAuditService(deps: { repo: AuditRepo; clock: Clock }) {
  const { repo, clock } = deps;

  async function record(e: AuditInput, trx?: Db): Promise<void> {
    await repo.insertAuditEvent(
      {
        id: newId(),
        at: clock.now(),
        realm_id: e.realmId,
        actor_id: e.actor?.id ?? null,
        actor_name: cut(e.actor?.name ?? '', 255),
        action: cut(e.action, 64),
        target_type: cut(e.target?.type ?? '', 32),
        target_id: e.target ? cut(e.target.id, 64) : null,
        target_name: cut(e.target?.name ?? '', 255),
        ip: cut(e.request?.ip ?? '', 64),
        user_agent: cut(e.request?.userAgent ?? '', 512),
        result: e.result,
        detail: detailJson(e),
      },
      trx,
    );
  }

  /** One page, newest first, with cursors to the next (older) and previous (newer) pages. */
  async function list(q: ListInput) {
    const key = decodeCursor(q.cursor);
    const prev = q.direction === 'prev';
    const rows = await repo.listAuditEvents({ ...q, limit: q.limit + 1, before: key && !prev ? key : undefined, after: key && prev ? key : undefined });
    // One row more than asked tells whether there is a page beyond, without counting.
    const more = rows.length > q.limit;
    const page = prev ? rows.slice(more ? 1 : 0) : rows.slice(0, q.limit);
    const first = page[0];
    const last = page[page.length - 1];
    return {
      items: page.map(toEvent),
      nextCursor: last && (prev ? key !== undefined : more) ? encodeCursor({ at: Number(last.at), id: last.id }) : null,
      prevCursor: first && (prev ? more : key !== undefined) ? encodeCursor({ at: Number(first.at), id: first.id }) : null,
    };
  }

  /**
   * The CSV of every event the filter matches, newest first, read in keyset batches so that
   * any number of rows streams in constant memory. Cells are escaped against formula
   * injection (csv.ts). `onDone` learns how many rows went out, even when the reader stopped.
   */
  async function* exportCsv(q: Omit<AuditQuery, 'before' | 'after' | 'limit'>, onDone?: (count: number) => Promise<void>): AsyncGenerator<string> {
    let count = 0;
    try {
      yield csvLine(CSV_COLUMNS);
      let before: AuditKey | undefined;
      for (;;) {
        const rows = await repo.listAuditEvents({ ...q, before, limit: EXPORT_BATCH });
        if (rows.length === 0) break;
        let chunk = '';
        for (const r of rows) chunk += csvLine(csvCells(toEvent(r)));
        count += rows.length;
        yield chunk;
        if (rows.length < EXPORT_BATCH) break;
        const last = rows[rows.length - 1]!;
        before = { at: Number(last.at), id: last.id };
      }
    } finally {
      await onDone?.(count);
    }
  }

  return { record, list, exportCsv };
}

type ListInput = Omit<AuditQuery, 'before' | 'after'> & { cursor?: string | undefined; direction?: 'next' | 'prev' | undefined };

const EXPORT_BATCH = 1000;
const CSV_COLUMNS = [
  'id',
  'time',
  'realm',
  'actor_id',
  'actor_name',
  'action',
  'target_type',
  'target_id',
  'target_name',
  'result',
  'ip',
  'user_agent',
  'changes',
  'detail',
];

function csvCells(e: AuditEvent): string[] {
  return [
    e.id,
    new Date(e.at).toISOString(),
    e.realmId,
    e.actor?.id ?? '',
    e.actor?.name ?? '',
    e.action,
    e.target?.type ?? '',
    e.target?.id ?? '',
    e.target?.name ?? '',
    e.result,
    e.ip,
    e.userAgent,
    e.changes.join(' '),
    Object.keys(e.detail).length ? JSON.stringify(e.detail) : '',
  ];
}

export type AuditService = ReturnType<typeof createAuditService>;
