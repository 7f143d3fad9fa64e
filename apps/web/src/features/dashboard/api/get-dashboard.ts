/** The dashboard's three reads: analysis (per realm or all), monitor (auto-refreshed), workplace. */
import { dashboardPaths, type AnalysisResult, type MonitorResult, type WorkplaceResult } from '@umbo/contracts/dashboard';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export const MONITOR_REFRESH_MS = 5000;

export function useAnalysis(realmId: string, days: number) {
  // Days start at the reader's midnight.
  const utcOffset = -new Date().getTimezoneOffset();
  return useQuery({
    queryKey: ['dashboard-analysis', realmId, days, utcOffset] as const,
    queryFn: ({ signal }) => api.get<AnalysisResult>(`${dashboardPaths.analysis(realmId)}?days=${days}&utcOffset=${utcOffset}`, { signal }),
    enabled: realmId !== '',
    placeholderData: keepPreviousData,
    meta: { inlineError: true },
  });
}

export function useMonitor(enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard-monitor'] as const,
    queryFn: ({ signal }) => api.get<MonitorResult>(dashboardPaths.monitor, { signal }),
    enabled,
    refetchInterval: MONITOR_REFRESH_MS,
    refetchIntervalInBackground: false,
    meta: { inlineError: true },
  });
}

export function useWorkplace() {
  return useQuery({
    queryKey: ['dashboard-workplace'] as const,
    queryFn: ({ signal }) => api.get<WorkplaceResult>(dashboardPaths.workplace, { signal }),
    meta: { inlineError: true },
  });
}
