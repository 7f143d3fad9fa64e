/**
 * An account's audit timeline (issue 11): what the account did and what was done to it,
 * newest first, older events on demand (keyset cursor). Shared: the person and service
 * account detail views mount it as `<AuditTimeline realmId accountId />`. The server decides
 * who may read it (person.get in that realm); a refusal is said in place.
 */
import { auditPaths, type AuditPage, type AuditEventView } from '@umbo/contracts/audit';
import { useInfiniteQuery } from '@tanstack/react-query';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Empty from 'antd/es/empty';
import Spin from 'antd/es/spin';
import Timeline from 'antd/es/timeline';
import type { TimelineItemType } from 'antd/es/timeline/Timeline';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client';
import { actionLabel, detailParts } from '../lib/audit-labels';
import { useFormat } from '../lib/format';

const PAGE = 20;

export function auditTimelineQueryKey(realmId: string, accountId: string) {
  return ['audit-timeline', realmId, accountId] as const;
}

function useTimeline(realmId: string, accountId: string) {
  return useInfiniteQuery({
    queryKey: auditTimelineQueryKey(realmId, accountId),
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const q = new URLSearchParams({ limit: String(PAGE) });
      if (pageParam) q.set('cursor', pageParam);
      return api.get<AuditPage>(`${auditPaths.timeline(realmId, accountId)}?${q.toString()}`, { signal });
    },
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    meta: { inlineError: true },
  });
}

export interface AuditTimelineProps {
  realmId: string;
  accountId: string;
}

export function AuditTimeline({ realmId, accountId }: AuditTimelineProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { data, error, isPending, hasNextPage, fetchNextPage, isFetchingNextPage, refetch } = useTimeline(realmId, accountId);
  const events = data?.pages.flatMap((p) => p.items) ?? [];

  const itemOf = (e: AuditEventView): TimelineItemType => {
    // The account itself is the subject of the whole list: name only the other party.
    const by = e.actor && e.actor.id !== accountId ? t('audit.by', { name: e.actor.name || e.actor.id }) : '';
    const on = e.target && e.target.id !== accountId ? t('audit.on', { name: e.target.name || e.target.id || '' }) : '';
    const facts = detailParts(t, e);
    return {
      key: e.id,
      color: e.result === 'ok' ? 'green' : 'red',
      title: <time dateTime={new Date(e.at).toISOString()}>{format.dateTime(e.at)}</time>,
      content: (
        <div className="audit-timeline__event" data-testid="audit-timeline-event">
          <div>
            <strong>{actionLabel(t, e.action)}</strong> · {e.result === 'ok' ? t('audit.result_ok') : t('audit.result_fail')}
          </div>
          {(by || on) && (
            <div dir="auto">
              {by} {on}
            </div>
          )}
          {facts.length > 0 && <div className="audit-timeline__facts">{facts.join(' · ')}</div>}
          {e.ip && (
            <div className="audit-timeline__facts">
              {t('audit.ip')}: <span dir="ltr">{e.ip}</span>
            </div>
          )}
        </div>
      ),
    };
  };

  return (
    <section className="audit-timeline" aria-label={t('audit.timeline_title')} data-testid="audit-timeline">
      {error && (
        <Alert
          type="error"
          showIcon
          title={t('table.load_failed')}
          description={error.message}
          action={
            <Button size="small" onClick={() => void refetch()}>
              {t('pages.retry')}
            </Button>
          }
        />
      )}
      {isPending && !error && <Spin />}
      {!isPending && !error && events.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audit.timeline_empty')} />}
      {events.length > 0 && <Timeline items={events.map(itemOf)} />}
      {hasNextPage && (
        <Button onClick={() => void fetchNextPage()} loading={isFetchingNextPage} data-testid="audit-timeline-more">
          {t('audit.load_older')}
        </Button>
      )}
    </section>
  );
}

export default AuditTimeline;
