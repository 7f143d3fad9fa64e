/**
 * The outbox (account/outbox, master administrators with outbox.query): mail and text
 * messages the service sent, newest first, filtered by channel and recipient; page and
 * filters in the address (lib/outbox-filter.ts).
 */
import Alert from 'antd/es/alert';
import Card from 'antd/es/card';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Empty from 'antd/es/empty';
import Pagination from 'antd/es/pagination';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import type { OutboxItem } from '@umbo/contracts/auth-flows';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useOutbox, type OutboxFilter } from '../api/get-outbox';
import { formatTime } from '../lib/report-error';
import { OUTBOX_PAGE_SIZE as PAGE_SIZE, outboxFilterFrom, withOutboxFilter } from '../lib/outbox-filter';

export default function OutboxPage() {
  const { t, i18n } = useTranslation();
  const [params, setParams] = useSearchParams();
  const filter = outboxFilterFrom(params);
  const change = (c: Parameters<typeof withOutboxFilter>[1]) => setParams(withOutboxFilter(params, c));
  const { data, isFetching } = useOutbox(filter);
  const channelLabel = (c: OutboxItem['channel']) => (c === 'mail' ? t('security.outbox_mail') : t('security.outbox_sms'));
  return (
    <Card title={t('menu.outbox')} data-testid="outbox-page">
      <Alert type="info" showIcon title={t('security.outbox_hint')} style={{ marginBottom: 16 }} />
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<OutboxFilter['channel'] | ''>
          style={{ minWidth: 160 }}
          value={filter.channel ?? ''}
          onChange={(channel) => change({ channel: channel || undefined })}
          options={[
            { value: '', label: t('security.outbox_all') },
            { value: 'mail', label: t('security.outbox_mail') },
            { value: 'sms', label: t('security.outbox_sms') },
          ]}
          aria-label={t('security.outbox_channel')}
        />
        <Input.Search
          id="outbox-recipient"
          aria-label={t('security.outbox_recipient')}
          allowClear
          defaultValue={filter.recipient}
          placeholder={t('security.outbox_recipient')}
          enterButton={t('security.search')}
          onSearch={(recipient) => change({ recipient })}
        />
      </Space>
      {/* A plain table: antd's Table injects a <style> without the CSP nonce to measure scrollbars. */}
      <Spin spinning={isFetching}>
        <div className="outbox__scroll">
          <table className="outbox__table">
            <thead>
              <tr>
                <th>{t('security.outbox_time')}</th>
                <th>{t('security.outbox_channel')}</th>
                <th>{t('security.outbox_recipient')}</th>
                <th>{t('security.outbox_subject')}</th>
                <th>{t('security.outbox_body')}</th>
              </tr>
            </thead>
            <tbody>
              {(data?.items ?? []).map((row) => (
                <tr key={row.id} data-testid="outbox-row">
                  <td className="outbox__nowrap">{formatTime(row.createdAt, i18n.language)}</td>
                  <td>
                    <Tag>{channelLabel(row.channel)}</Tag>
                  </td>
                  <td>{row.recipient}</td>
                  <td dir="auto">{row.subject}</td>
                  <td>
                    <pre className="outbox__body" dir="auto">
                      {row.body}
                    </pre>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {data && data.items.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      </Spin>
      {(data?.total ?? 0) > PAGE_SIZE && (
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          current={filter.offset / PAGE_SIZE + 1}
          pageSize={PAGE_SIZE}
          total={data?.total ?? 0}
          showSizeChanger={false}
          onChange={(page) => change({ page })}
        />
      )}
    </Card>
  );
}
