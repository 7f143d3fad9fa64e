/**
 * The "certificates expiring" card (issue 13): how many live certificates of the domain end
 * within 7 / 30 / 90 days. Only for holders of domainCert.query; the server decides per
 * domain, so a refusal for the chosen domain hides the card instead of showing an error.
 */
import { ALL_REALMS } from '@umbo/contracts/audit';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import { EXPIRY_WINDOWS } from '@umbo/contracts/pki';
import Card from 'antd/es/card';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error';
import { useFormat } from '../../../lib/format';
import { useCertExpiry } from '../api/get-cert-expiry';

export function CertExpiryCard({ user, realmId }: { user: CurrentUser; realmId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  const allowed = can(user, 'domainCert', 'query') && realmId !== ALL_REALMS;
  const { data, error } = useCertExpiry(realmId, allowed);
  if (!allowed || (error instanceof ApiError && (error.status === 403 || error.status === 404))) return null;
  const counts = data?.counts;
  const value = (d: (typeof EXPIRY_WINDOWS)[number]) => (counts ? format.number(counts[`d${d}`]) : '–');

  return (
    <Card size="small" title={t('dashboard.cert_expiring')} className="dashboard__note dashboard__cert-expiry" data-testid="cert-expiry-card">
      {error ? (
        <p role="alert">{t('dashboard.load_failed')}</p>
      ) : (
        <dl className="dashboard__cert-expiry-counts">
          {EXPIRY_WINDOWS.map((d) => (
            <div key={d} data-testid={`cert-expiring-${d}`}>
              <dt>{t('dashboard.cert_within', { days: format.number(d) })}</dt>
              <dd>{value(d)}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="dashboard__stat-note">{t('dashboard.cert_expiring_note')}</p>
    </Card>
  );
}
