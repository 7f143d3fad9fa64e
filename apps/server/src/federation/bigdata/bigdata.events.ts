/**
 * Which account events a bigdata realm reports to its data centre (issue 14), and what each
 * report says. The audit trail is where every sign-in, registration and account change is
 * already recorded, in the transaction of the change (audit/audit.service.ts); this wraps its
 * `record` so that an event of a bigdata realm is queued in that same transaction. A change
 * that rolls back leaves no report; a committed one always has its row (at least once). An
 * audit event that stands for many accounts (a CSV import) names them to `accountsCreated`.
 *
 * The report carries ids, the account's name, the kind, the time and the NAMES of changed
 * fields — never a value, an address, a password or a code (the audit input holds none either).
 */
import { ErrorCodes } from '@umbo/contracts';
import type { AuditInput, AuditService, RealmSettingsSeen } from '../../audit/audit.service.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/crypto.js';
import { ApiError } from '../../platform/errors.js';
import type { Db, Transact } from '../../platform/db.js';
import { readRealmSettings, type StoredRealmSettings } from '../../realms/realm-settings.js';
import type { RealmRepo } from '../../realms/realms.repo.js';
import type { BigdataRepo, NewBigdataEvent } from './bigdata.repo.js';

export type BigdataEventKind = 'registered' | 'signed_in' | 'changed' | 'disabled' | 'deleted';

/** Audit actions of an account (person or service) → the kind reported. */
const KINDS: Record<string, BigdataEventKind> = {
  registration: 'registered',
  'account.create': 'registered',
  'service.create': 'registered',
  'account.update': 'changed',
  'account.enable': 'changed',
  'account.password_reset_by_admin': 'changed',
  'account.otp_reset': 'changed',
  activation: 'changed',
  'password.changed': 'changed',
  'password.reset': 'changed',
  'service.update': 'changed',
  'service.enable': 'changed',
  'service.password': 'changed',
  'service.resources': 'changed',
  'account.disable': 'disabled',
  'service.disable': 'disabled',
  'account.delete': 'deleted',
  'service.delete': 'deleted',
};

/** A sign-in's action is `signin.<method>`; `signin.otp` and `signin.lock` are steps, not sign-ins. */
const NOT_SIGN_INS = new Set(['signin.otp', 'signin.lock']);

/** The kind of an audit event, or undefined when the data centre is not told of it. */
export function kindOf(e: AuditInput): BigdataEventKind | undefined {
  if (e.result !== 'ok' || !e.target || (e.target.type !== 'account' && e.target.type !== 'service')) return undefined;
  if (e.action.startsWith('signin.')) return NOT_SIGN_INS.has(e.action) ? undefined : 'signed_in';
  return KINDS[e.action];
}

/** The JSON body the data centre receives for one event. */
export interface BigdataReport {
  eventId: string;
  kind: BigdataEventKind;
  category: string;
  realmId: string;
  accountId: string;
  accountName: string;
  accountType: 'person' | 'service';
  /** the audit action it came from, e.g. signin.password, account.update */
  action: string;
  occurredAt: number;
  /** sign-in method, when there was one */
  method?: string;
  /** names of the changed fields */
  changes?: string[];
}

export function reportOf(e: AuditInput, kind: BigdataEventKind, category: string, eventId: string, at: number): BigdataReport {
  const target = e.target!;
  const method = e.detail?.method;
  return {
    eventId,
    kind,
    category,
    realmId: e.realmId,
    accountId: target.id,
    accountName: target.name,
    accountType: target.type === 'service' ? 'service' : 'person',
    action: e.action,
    occurredAt: at,
    ...(typeof method === 'string' ? { method } : {}),
    ...(e.changes?.length ? { changes: [...e.changes] } : {}),
  };
}

export interface BigdataTapDeps {
  queue: Pick<BigdataRepo, 'enqueue' | 'enqueueMany'>;
  realms: Pick<RealmRepo, 'findRealmById'>;
  /** outside a transaction: the realm settings as the sign-in flows read them (kept in memory, realms/realm-policy.ts) */
  settingsOf?(realmId: string): Promise<Pick<StoredRealmSettings, 'backend_type' | 'backend'>>;
  transact: Transact;
  clock: Clock;
}

/** Reports written per statement when one audit event stands for many accounts. */
const MANY_BATCH = 500;

/**
 * Accounts created under one audit event (a CSV import records one row for the whole file, with
 * no account as its target, so `record` alone would report none of them).
 */
export type AccountsCreated = (e: AuditInput, accounts: readonly { id: string; username: string }[], trx: Db) => Promise<void>;

/** The audit service, with the events of bigdata realms queued beside their audit rows. */
export function withBigdataEvents(audit: AuditService, deps: BigdataTapDeps): AuditService & { accountsCreated: AccountsCreated } {
  /** The realm's data-centre category, or undefined when the realm does not report. */
  async function categoryOf(realmId: string, trx?: Db, seen?: RealmSettingsSeen): Promise<string | undefined> {
    // a sign-in hands over the settings it read at its start, also inside its own transaction
    // (which changes no realm): no second read of them (nor of the auth epoch)
    const st: RealmSettingsSeen | undefined = seen ?? (await settingsIn(realmId, trx));
    if (!st) return undefined;
    return st.backend_type === 'bigdata' && st.backend?.type === 'bigdata' ? st.backend.category : undefined;
  }

  /** Inside the caller's transaction the row as that transaction sees it; outside, the shared settings. */
  async function settingsIn(realmId: string, trx?: Db): Promise<Pick<StoredRealmSettings, 'backend_type' | 'backend'> | undefined> {
    if (!trx && deps.settingsOf)
      return deps.settingsOf(realmId).catch((err: unknown) => {
        if (err instanceof ApiError && err.def === ErrorCodes.NOT_FOUND) return undefined; // a realm deleted meanwhile
        throw err;
      });
    const realm = await deps.realms.findRealmById(realmId, trx);
    return realm ? readRealmSettings(realm.settings) : undefined;
  }

  function rowOf(e: AuditInput, kind: BigdataEventKind, category: string, at: number): NewBigdataEvent {
    const eventId = newId();
    const report = reportOf(e, kind, category, eventId, at);
    return { event_id: eventId, realm_id: e.realmId, account_id: report.accountId, kind, payload: JSON.stringify(report), next_attempt_at: at, created_at: at };
  }

  async function enqueue(e: AuditInput, kind: BigdataEventKind, category: string, trx: Db): Promise<void> {
    await deps.queue.enqueue(rowOf(e, kind, category, deps.clock.now()), trx);
  }

  /**
   * Each account `e` created is reported as registered, in the caller's transaction (after it
   * recorded `e`): the realm is read once for all of them, not once per account, and the
   * reports are built a batch at a time, so a file of many rows holds only a batch in memory.
   */
  async function accountsCreated(e: AuditInput, accounts: readonly { id: string; username: string }[], trx: Db): Promise<void> {
    if (e.result !== 'ok' || accounts.length === 0) return;
    const category = await categoryOf(e.realmId, trx);
    if (category === undefined) return;
    const at = deps.clock.now();
    for (let i = 0; i < accounts.length; i += MANY_BATCH) {
      const rows = accounts
        .slice(i, i + MANY_BATCH)
        .map((a) => rowOf({ ...e, target: { type: 'account', id: a.id, name: a.username } }, 'registered', category, at));
      // false: the realm is being deleted, and takes its reports along
      if (!(await deps.queue.enqueueMany(e.realmId, rows, trx))) return;
    }
  }

  async function record(e: AuditInput, trx?: Db): Promise<void> {
    const kind = kindOf(e);
    if (!kind) return audit.record(e, trx);
    if (trx) {
      await audit.record(e, trx);
      const category = await categoryOf(e.realmId, trx, e.realmSettings);
      if (category !== undefined) await enqueue(e, kind, category, trx);
      return;
    }
    // No transaction of the caller's (a sign-in): the audit row and the report commit together.
    const category = await categoryOf(e.realmId, undefined, e.realmSettings);
    if (category === undefined) return audit.record(e);
    await deps.transact(async (t) => {
      await audit.record(e, t);
      await enqueue(e, kind, category, t);
    });
  }

  return { ...audit, record, accountsCreated };
}
