/**
 * The dashboard (SPEC §2 "dashboard (analysis, monitor, workplace)", issue 11): figures
 * computed from the audit trail and from the server's own metrics — real ones, no demo data.
 */
import { z } from 'zod';
import { auditEvent } from './audit.js';

export const dashboardPaths = {
  analysis: (realmId: string) => `/api/users/realms/${encodeURIComponent(realmId)}/dashboard/analysis`,
  monitor: '/api/users/dashboard/monitor',
  workplace: '/api/users/dashboard/workplace',
} as const;

export const ANALYSIS_PERIODS = [7, 30, 90] as const;
export type AnalysisPeriod = (typeof ANALYSIS_PERIODS)[number];
/** Sign-in methods the analysis counts (the audit actions signin.<method>). */
export const SIGN_IN_METHODS = ['password', 'sms', 'email', 'ftoken', 'upstream'] as const;
export type SignInMethodName = (typeof SIGN_IN_METHODS)[number];

export const analysisQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((d) => (ANALYSIS_PERIODS as readonly number[]).includes(d), 'one of 7, 30, 90')
    .default(7),
  /** the reader's minutes east of UTC: days start at their midnight (-840 … 840) */
  utcOffset: z.coerce.number().int().min(-840).max(840).default(0),
});

const okFail = z.object({ ok: z.number(), fail: z.number() });

export const analysisDay = z.object({
  /** YYYY-MM-DD in the reader's time zone */
  date: z.string(),
  signIns: z.object({ password: okFail, sms: okFail, email: okFail, ftoken: okFail, upstream: okFail }),
  registrations: z.number(),
  /** distinct accounts that signed in that day */
  active: z.number(),
  locks: z.number(),
  /** failed sign-ins and one-time password checks */
  failures: z.number(),
});

export const analysisResult = z.object({
  realmId: z.string(),
  days: z.number(),
  /** epoch ms: the first day's start, inclusive */
  from: z.number(),
  /** epoch ms: the end of today, exclusive */
  to: z.number(),
  series: z.array(analysisDay),
  totals: z.object({
    signInsOk: z.number(),
    signInsFail: z.number(),
    registrations: z.number(),
    /** distinct accounts that signed in over the whole period */
    active: z.number(),
    locks: z.number(),
    failures: z.number(),
  }),
});

const probe = z.object({ ok: z.boolean(), latencyMs: z.number().nullable() });

/**
 * The data centre event queue (issue 14), shared by every instance (it lives in the database):
 * events waiting per bigdata realm, how many of them failed their last attempt, the age of the
 * oldest and the latest failure's reason ("HTTP 503", "timeout") — never a payload or secret.
 */
export const bigdataQueueRealm = z.object({
  realmId: z.string(),
  pending: z.number(),
  failing: z.number(),
  oldestAgeSeconds: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.number().nullable(),
});
export const bigdataQueueStatus = z.object({
  pending: z.number(),
  failing: z.number(),
  /** null: the queue is empty */
  oldestAgeSeconds: z.number().nullable(),
  realms: z.array(bigdataQueueRealm),
});
export type BigdataQueueStatus = z.infer<typeof bigdataQueueStatus>;

/**
 * The circuit breaker of each IT-interface realm backend this instance has called (issue 14;
 * per process: each instance protects itself). lastFailure is a reason word ("timeout",
 * "server_error"), never an answer body or secret.
 */
export const backendBreaker = z.object({
  realmId: z.string(),
  type: z.string(),
  state: z.enum(['closed', 'open', 'half_open']),
  consecutiveFailures: z.number(),
  openedAt: z.number().nullable(),
  lastFailure: z.string().nullable(),
  lastFailureAt: z.number().nullable(),
});
export type BackendBreaker = z.infer<typeof backendBreaker>;

export const monitorResult = z.object({
  at: z.number(),
  /** this server process (each instance reports itself) */
  uptimeSeconds: z.number(),
  window: z.object({
    seconds: z.number(),
    requests: z.number(),
    perSecond: z.number(),
    errorRate: z.number(),
    clientErrorRate: z.number(),
    p50: z.number().nullable(),
    p95: z.number().nullable(),
    p99: z.number().nullable(),
  }),
  /** the last five minutes, one point per 10 seconds */
  series: z.array(z.object({ at: z.number(), requests: z.number(), errors: z.number(), p95: z.number().nullable() })),
  database: probe.extend({ dialect: z.string() }),
  /** null: no REDIS_URL */
  redis: probe.nullable(),
  memory: z.object({ rssBytes: z.number(), heapUsedBytes: z.number() }),
  /** issue 14: the data centre event queue */
  queue: bigdataQueueStatus,
  /** issue 14: the IT-interface backends' circuit breakers */
  backends: z.array(backendBreaker),
});

export const workplaceResult = z.object({
  /** the realms whose audit trail the caller may read; ['*'] for every realm */
  realms: z.array(z.string()),
  latest: z.array(auditEvent),
});

export type AnalysisResult = z.infer<typeof analysisResult>;
export type AnalysisDay = z.infer<typeof analysisDay>;
export type MonitorResult = z.infer<typeof monitorResult>;
export type WorkplaceResult = z.infer<typeof workplaceResult>;
