/**
 * The outbox (account/outbox, master administrators with outbox.query): mail and text
 * messages the service sent, newest first, filtered by channel and recipient. Paging and
 * filters live in the address (lib/use-list-params.ts).
 */
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Tag from 'antd/es/tag';
import type { OutboxItem } from '@umbo/contracts/auth-flows';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type DataTableColumn } from '../../../components/data-table';
import { useFormat } from '../../../lib/format';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { useOutbox } from '../api/get-outbox';

type Filter = 'channel' | 'recipient';
// The server lists newest first and has no other order: no column is sortable.
const SPEC: ListSpec<Filter> = { filters: ['channel', 'recipient'] };

const asChannel = (value: string | undefined) => (value === 'mail' || value === 'sms' ? value : undefined);

export default function OutboxPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const list = useListParams(SPEC);
  const { data, error, isFetching, refetch } = useOutbox({
    limit: list.pageSize,
    offset: list.offset,
    channel: asChannel(list.filters.channel),
    recipient: list.filters.recipient,
  });

  const columns = useMemo((): DataTableColumn<OutboxItem, Filter>[] => {
    const channelLabel = (c: OutboxItem['channel']) => (c === 'mail' ? t('security.outbox_mail') : t('security.outbox_sms'));
    return [
      {
        key: 'createdAt',
        dataIndex: 'createdAt',
        title: t('security.outbox_time'),
        width: 190,
        className: 'outbox__nowrap',
        render: (ms: number) => format.dateTime(ms),
      },
      {
        key: 'channel',
        dataIndex: 'channel',
        title: t('security.outbox_channel'),
        width: 110,
        render: (c: OutboxItem['channel']) => <Tag>{channelLabel(c)}</Tag>,
        filter: { param: 'channel', options: (['mail', 'sms'] as const).map((c) => ({ value: c, text: channelLabel(c) })) },
      },
      // Addresses and numbers read left to right in Arabic too ("+86…", not "…86+").
      { key: 'recipient', dataIndex: 'recipient', title: t('security.outbox_recipient'), width: 200, render: (r: string) => r && <span dir="ltr">{r}</span> },
      { key: 'subject', dataIndex: 'subject', title: t('security.outbox_subject'), width: 200, render: (s: string) => s && <span dir="auto">{s}</span> },
      {
        key: 'body',
        dataIndex: 'body',
        title: t('security.outbox_body'),
        render: (body: string) =>
          body && (
            <pre className="outbox__body" dir="auto">
              {body}
            </pre>
          ),
      },
    ];
  }, [t, format]);

  return (
    <Card title={t('menu.outbox')} data-testid="outbox-page">
      <Alert type="info" showIcon title={t('security.outbox_hint')} className="outbox__hint" />
      <DataTable
        tableId="outbox"
        columns={columns}
        list={list}
        data={data}
        rowKey="id"
        loading={isFetching}
        error={error}
        onReload={() => void refetch()}
        // Fits the content area beside an open side menu at 1280 px; narrower screens scroll.
        scrollX={900}
        rowTestId="outbox-row"
        toolbar={
          <Input.Search
            // A new address (back button, a link) starts the box from what it says.
            key={list.filters.recipient ?? ''}
            id="outbox-recipient"
            className="outbox__search"
            aria-label={t('security.outbox_recipient')}
            allowClear
            defaultValue={list.filters.recipient}
            placeholder={t('security.outbox_recipient')}
            enterButton={t('security.search')}
            onSearch={(recipient) => list.change({ filters: { recipient } })}
          />
        }
      />
    </Card>
  );
}
