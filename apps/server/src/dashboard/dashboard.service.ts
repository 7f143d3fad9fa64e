/**
 * The dashboard's analysis and workplace (issue 11), computed from the audit trail:
 * sign-ins per day by method and result, registrations, active accounts (distinct accounts
 * that signed in), locks and failures, for one realm or — administrators of master — all.
 * Cost: two grouped queries over one range of the (realm_id, action, at, result, target_id)
 * index per realm and action (migration 0020), so a 90-day view reads index entries of the
 * counted events only, never the table; the answer is at most 90 rows per action and result.
 */
import { ALL_REALMS } from '@umbo/contracts/audit';
import { SIGN_IN_METHODS, type AnalysisDay, type AnalysisResult } from '@umbo/contracts/dashboard';
import { DAY_MS, type AuditRepo } from '../audit/audit.repo.js';
import { toEvent } from '../audit/audit.service.js';
import type { PermService, Principal } from '../perm/perm.service.js';
import type { Clock } from '../platform/clock.js';
import { assertThat } from '../platform/errors.js';

const SIGN_IN_ACTIONS = SIGN_IN_METHODS.map((m) => `signin.${m}`);
const COUNTED = [...SIGN_IN_ACTIONS, 'signin.otp', 'signin.lock', 'registration'];
const LATEST = 10;

export interface DashboardReader {
  principal: Principal;
  /** may read every realm (administrators of master) */
  allRealms: boolean;
}

const emptyDay = (date: string): AnalysisDay => ({
  date,
  signIns: Object.fromEntries(SIGN_IN_METHODS.map((m) => [m, { ok: 0, fail: 0 }])) as AnalysisDay['signIns'],
  registrations: 0,
  active: 0,
  locks: 0,
  failures: 0,
});

export function createDashboardService(deps: {
  audit: Pick<AuditRepo, 'countByDay' | 'distinctTargets' | 'listAuditEvents'>;
  perm: Pick<PermService, 'allows'>;
  clock: Clock;
}) {
  const { audit, perm, clock } = deps;

  async function analysis(reader: DashboardReader, realmId: string, q: { days: number; utcOffset: number }): Promise<AnalysisResult> {
    // `*` passes the guard only for admin of master; checked again here (as the audit reads do).
    assertThat(realmId !== ALL_REALMS || reader.allRealms, 'FORBIDDEN', { service: 'users', resource: 'dashboard', perm: 'query' });
    const realmIds = realmId === ALL_REALMS ? null : [realmId];
    const offsetMs = q.utcOffset * 60_000;
    const today = Math.floor((clock.now() + offsetMs) / DAY_MS);
    const first = today - q.days + 1;
    const from = first * DAY_MS - offsetMs;
    const to = (today + 1) * DAY_MS - offsetMs;
    const range = { realmIds, from, to, utcOffsetMinutes: q.utcOffset };
    const [counts, active] = await Promise.all([
      audit.countByDay({ ...range, actions: COUNTED }),
      audit.distinctTargets({ ...range, actions: SIGN_IN_ACTIONS }),
    ]);

    // A day's number times DAY_MS is midnight UTC of the same calendar date: its ISO date is the reader's date.
    const series = Array.from({ length: q.days }, (_, i) => emptyDay(new Date((first + i) * DAY_MS).toISOString().slice(0, 10)));
    const dayOf = (n: number) => series[n - first];
    for (const c of counts) {
      const d = dayOf(c.day);
      if (!d) continue;
      const method = c.action.startsWith('signin.') ? (c.action.slice(7) as keyof AnalysisDay['signIns']) : undefined;
      if (method && method in d.signIns) d.signIns[method][c.result] += c.n;
      if (c.action === 'registration' && c.result === 'ok') d.registrations += c.n;
      if (c.action === 'signin.lock') d.locks += c.n;
      if (c.result === 'fail' && c.action.startsWith('signin.')) d.failures += c.n;
    }
    for (const a of active.perDay) {
      const d = dayOf(a.day);
      if (d) d.active = a.n;
    }
    const sum = (f: (d: AnalysisDay) => number) => series.reduce((n, d) => n + f(d), 0);
    const signIns = (r: 'ok' | 'fail') => sum((d) => SIGN_IN_METHODS.reduce((n, m) => n + d.signIns[m][r], 0));
    return {
      realmId,
      days: q.days,
      from,
      to,
      series,
      totals: {
        signInsOk: signIns('ok'),
        signInsFail: signIns('fail'),
        registrations: sum((d) => d.registrations),
        active: active.total,
        locks: sum((d) => d.locks),
        failures: sum((d) => d.failures),
      },
    };
  }

  /** The realms whose trail the reader may read: every realm, or those where a role grants audit.query. */
  function auditRealms(reader: DashboardReader): string[] | null {
    if (reader.allRealms) return null;
    const scopes = new Set(reader.principal.roles.map((r) => r.scopeRealmId));
    return [...scopes].filter((realm) => perm.allows(reader.principal, 'audit', 'query', realm)).sort();
  }

  /** The latest audit events of the reader's realms (none when they may read no trail). */
  async function workplace(reader: DashboardReader) {
    const realms = auditRealms(reader);
    if (realms === null) {
      const rows = await audit.listAuditEvents({ realmId: null, limit: LATEST });
      return { realms: [ALL_REALMS], latest: rows.map(toEvent) };
    }
    const perRealm = await Promise.all(realms.map((realmId) => audit.listAuditEvents({ realmId, limit: LATEST })));
    const rows = perRealm
      .flat()
      .sort((a, b) => Number(b.at) - Number(a.at) || (b.id < a.id ? -1 : 1))
      .slice(0, LATEST);
    return { realms, latest: rows.map(toEvent) };
  }

  return { analysis, workplace };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
