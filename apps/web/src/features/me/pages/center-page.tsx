/** Basic information (account/center): every SPEC §3 "Account centre" field, name, avatar and bindings. */
import EditOutlined from '@ant-design/icons/EditOutlined';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Descriptions from 'antd/es/descriptions';
import Grid from 'antd/es/grid';
import Space from 'antd/es/space';
import Tag from 'antd/es/tag';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoading } from '../../../components/page-loading';
import { useFormat } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/get-current-user';
import { useAccount } from '../api/get-account';
import type { BindingChannel } from '../api/send-binding-code';
import { AvatarUpload } from '../components/avatar-upload';
import { BindingDialog, UnbindDialog } from '../components/binding-dialog';
import { UsernameDialog } from '../components/username-dialog';

type Dialog = { kind: 'username' } | { kind: 'bind' | 'unbind'; channel: BindingChannel };

export default function CenterPage() {
  const { t } = useTranslation();
  const format = useFormat();
  const { data: account } = useAccount();
  const { data: user } = useCurrentUser();
  const [dialog, setDialog] = useState<Dialog>();
  // On a phone the labels stand above their values: side by side they squeeze each other.
  const wide = Grid.useBreakpoint().md !== false;
  if (!account) return <PageLoading />;
  const time = (ms: number | null) => format.dateTime(ms) || t('security.never');
  const text = (value: string | null | undefined) => value || '—';
  const close = () => setDialog(undefined);
  const person = account.kind === 'person';

  const binding = (channel: BindingChannel, value: string | null): ReactNode => (
    <Space wrap>
      <span data-testid={`bound-${channel}`}>{value ?? t('account.not_bound')}</span>
      {person && (
        <Button size="small" type="link" onClick={() => setDialog({ kind: 'bind', channel })}>
          {channel === 'email' ? t(value ? 'account.change_email' : 'account.bind_email') : t(value ? 'account.change_phone' : 'account.bind_phone')}
        </Button>
      )}
      {person && value && (
        <Button size="small" type="link" danger onClick={() => setDialog({ kind: 'unbind', channel })}>
          {t('account.unbind')}
        </Button>
      )}
    </Space>
  );

  return (
    <Card title={t('account.center_title')}>
      <Descriptions
        className="account-center"
        column={{ xs: 1, sm: 1, md: 2 }}
        layout={wide ? 'horizontal' : 'vertical'}
        bordered
        size="middle"
        data-testid="account-center"
      >
        <Descriptions.Item label={t('account.avatar')} span={2}>
          {person ? (
            <AvatarUpload src={account.avatar} name={account.username} />
          ) : (
            // A service account has no picture of its own to upload; its initial stands in.
            <Avatar size={64} src={account.avatar || undefined} data-testid="account-avatar">
              {account.username.slice(0, 1).toUpperCase()}
            </Avatar>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('account.account_mark')}>{text(account.accountMark)}</Descriptions.Item>
        <Descriptions.Item label={t('account.account_id')}>{account.id}</Descriptions.Item>
        <Descriptions.Item label={t('account.username')}>
          <Space>
            <span data-testid="account-username">{account.username}</span>
            {person && (
              <Button size="small" type="link" icon={<EditOutlined />} onClick={() => setDialog({ kind: 'username' })} data-testid="edit-username">
                {t('account.edit_username')}
              </Button>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('security.kind')}>{person ? t('security.kind_person') : t('security.kind_service')}</Descriptions.Item>
        <Descriptions.Item label={t('account.domain')}>{text(account.domain)}</Descriptions.Item>
        <Descriptions.Item label={t('account.domain_id')}>{text(account.domainId)}</Descriptions.Item>
        <Descriptions.Item label={t('security.email')}>{binding('email', account.email)}</Descriptions.Item>
        <Descriptions.Item label={t('security.phone')}>{binding('sms', account.phone)}</Descriptions.Item>
        <Descriptions.Item label={t('account.last_login_time')}>{time(account.lastLoginTime)}</Descriptions.Item>
        <Descriptions.Item label={t('account.last_login_area')}>{text(account.lastLoginArea)}</Descriptions.Item>
        <Descriptions.Item label={t('account.regist_time')}>{time(account.registTime)}</Descriptions.Item>
        <Descriptions.Item label={t('account.regist_area')}>{text(account.registArea)}</Descriptions.Item>
        <Descriptions.Item label={t('account.update_time')}>{time(account.updateTime)}</Descriptions.Item>
        <Descriptions.Item label={t('account.otp_title')}>
          <Tag color={account.otpEnabled ? 'green' : 'default'}>{account.otpEnabled ? t('account.otp_enabled') : t('account.otp_disabled')}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('pages.roles')} span={2}>
          <Space size={[4, 4]} wrap data-testid="account-roles">
            {user?.roles.map((role) => (
              <Tag key={role.id}>{role.name}</Tag>
            ))}
          </Space>
        </Descriptions.Item>
      </Descriptions>
      <UsernameDialog current={account.username} open={dialog?.kind === 'username'} onClose={close} />
      {dialog?.kind === 'bind' && (
        <BindingDialog channel={dialog.channel} current={dialog.channel === 'email' ? account.email : account.phone} onClose={close} />
      )}
      {dialog?.kind === 'unbind' && <UnbindDialog channel={dialog.channel} onClose={close} />}
    </Card>
  );
}
