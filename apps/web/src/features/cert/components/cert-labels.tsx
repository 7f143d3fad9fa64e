/** How the cert pages show statuses, types and reasons: words from the phrases, colour only as an extra. */
import Badge from 'antd/es/badge';
import type { CertStatus, CertView } from '@umbo/contracts/pki';
import { useTranslation } from 'react-i18next';

// A dot beside plain text: the words keep the text's contrast (a coloured tag's text would not).
const STATUS_DOT: Record<CertStatus, 'success' | 'warning' | 'error' | 'processing'> = {
  valid: 'success',
  expired: 'warning',
  revoked: 'error',
  caRevoked: 'error',
  pending: 'processing',
};

export function StatusTag({ status }: { status: CertStatus }) {
  const { t } = useTranslation();
  return <Badge status={STATUS_DOT[status]} text={<span data-testid="cert-status">{t(`cert.status_${status}`)}</span>} />;
}

export function RevokeStatus({ revoke, format }: { revoke: CertView['revokeStatus']; format: (ms: number) => string }) {
  const { t } = useTranslation();
  if (!revoke.revoked) return <span>{t('cert.not_revoked')}</span>;
  return (
    <span data-testid="cert-revoke-status">
      {revoke.reason ? t(`cert.reason_${revoke.reason}`) : t('cert.status_revoked')}
      {revoke.revokedAtTs !== null && (
        <>
          <br />
          <small>{t('cert.revoked_at', { time: format(revoke.revokedAtTs) })}</small>
        </>
      )}
    </span>
  );
}
