/** Security settings (account/security): password, one-time password, devices, preferences. */
import Space from 'antd/es/space';
import { PageLoading } from '../../../components/page-loading';
import { useAccount } from '../api/get-account';
import { OtpCard } from '../components/otp-card';
import { PasswordCard } from '../components/password-card';
import { PreferencesCard } from '../components/preferences-card';
import { SessionsCard } from '../components/sessions-card';

export default function SecurityPage() {
  const { data: account } = useAccount();
  if (!account) return <PageLoading />;
  // SPEC §3 force_password: only the password change works until it is done.
  if (account.forcePassword) return <PasswordCard forced />;
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }} data-testid="security-page">
      <PasswordCard forced={false} />
      <OtpCard />
      <SessionsCard />
      <PreferencesCard />
    </Space>
  );
}
