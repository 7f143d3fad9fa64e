/**
 * The signed-in user's own OAuth records (user/oauth, user area; issue 12 "the user's
 * authorization records … with revoke"): every account may see and revoke what it granted.
 */
import Card from 'antd/es/card';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { useListParams, type ListSpec } from '../../../lib/use-list-params';
import { RecordsTable } from '../components/records-table';
import '../components/records.css';

const SPEC: ListSpec<never> = {};

export default function MyOAuthPage() {
  const { t } = useTranslation();
  const list = useListParams(SPEC);
  return (
    <Card title={t('clients.rec_own_title')} data-testid="my-oauth-page">
      <Typography.Paragraph type="secondary" className="records__intro">
        {t('clients.rec_own_intro')}
      </Typography.Paragraph>
      <RecordsTable scope="own" list={list} canRevoke emptyText={t('clients.rec_empty_own')} />
    </Card>
  );
}
