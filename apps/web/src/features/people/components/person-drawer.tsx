/**
 * One person account in a drawer (issue 11): SPEC §3's fields with last login, registration
 * area and time; email and phone editing; its sessions (end one or all); its one-time
 * password (state, reset); a temporary password; and its audit timeline. Each part shows only
 * when the user holds its permission; the server decides again on every call.
 */
import Badge from 'antd/es/badge';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import List from 'antd/es/list';
import Popconfirm from 'antd/es/popconfirm';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import { personPasswordBody, updatePersonBody, type PersonDetail } from '@umbo/contracts/people';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AuditTimeline } from '../../../components/audit-timeline';
import { confirm, showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useFormat } from '../../../lib/format';
import { usePerson, usePersonOtp, usePersonSessions } from '../api/person-detail';
import { useUpdatePerson } from '../api/person-save';
import { usePersonSecurity } from '../api/person-security';
import { fieldError } from './person-create-dialog';
import { PersonRefreshButton } from './person-refresh';
import { PersonUpstreamLinks } from './person-upstream-links';

interface Props {
  realmId: string;
  id: string;
  user: CurrentUser;
  onClose: () => void;
}

export function PersonDrawer({ realmId, id, user, onClose }: Props) {
  const { t } = useTranslation();
  const { data: person, isPending } = usePerson(realmId, id);
  return (
    <Drawer
      open
      onClose={onClose}
      size="large"
      title={person ? t('people.person.detail_title', { name: person.username }) : t('people.person.details')}
      data-testid="person-drawer"
      destroyOnHidden
    >
      {isPending && <Spin />}
      {person && <PersonDetails realmId={realmId} person={person} user={user} />}
    </Drawer>
  );
}

function PersonDetails({ realmId, person, user }: { realmId: string; person: PersonDetail; user: CurrentUser }) {
  const { t } = useTranslation();
  const format = useFormat();
  const may = (action: 'edit' | 'update' | 'get') => can(user, 'person', action);
  const self = person.id === user.id;
  const yesNo = (v: boolean) => t(v ? 'people.person.yes' : 'people.person.no');
  const ltr = (v: string | null) => v && <span dir="ltr">{v}</span>;
  return (
    <>
      <Descriptions column={1} size="small" bordered>
        <Descriptions.Item label={t('people.person.username')}>
          <span dir="auto" className="person-drawer__value" data-testid="person-detail-username">
            {person.username}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('people.person.id')}>{ltr(person.id)}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.realm')}>{ltr(person.realmId)}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.col_status')}>
          <Badge status={person.disabled ? 'default' : 'success'} text={t(person.disabled ? 'people.person.disabled' : 'people.person.enabled')} />
        </Descriptions.Item>
        <Descriptions.Item label={t('people.person.col_activated')}>
          {t(person.activated ? 'people.person.activated_yes' : 'people.person.activated_no')}
        </Descriptions.Item>
        <Descriptions.Item label={t('people.person.email')}>{ltr(person.email) || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.phone')}>{ltr(person.phone) || '—'}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.col_regist_area')}>{person.registArea ? ltr(`+${person.registArea}`) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.col_created')}>{format.dateTime(person.createdAt)}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.col_last_login')}>{person.lastLoginAt ? format.dateTime(person.lastLoginAt) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.last_login_area')}>{person.lastLoginArea ? ltr(person.lastLoginArea) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.updated')}>{format.dateTime(person.updatedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.has_password')}>{yesNo(person.hasPassword)}</Descriptions.Item>
        <Descriptions.Item label={t('people.person.force_password')}>{yesNo(person.forcePassword)}</Descriptions.Item>
        {person.aliLiving !== undefined && (
          <Descriptions.Item label={t('people.person.aliliving')}>
            <AliLivingLink link={person.aliLiving} />
          </Descriptions.Item>
        )}
      </Descriptions>
      {can(user, 'service', 'query') && (
        <p className="person-drawer__section">
          <Link to={`/account/service?realmId=${encodeURIComponent(realmId)}&ownerId=${encodeURIComponent(person.id)}`}>
            {t('people.person.service_accounts')}
          </Link>
        </p>
      )}
      {/* issue 14: shown only in a realm behind an IT-interface backend */}
      {may('edit') && <PersonRefreshButton realmId={realmId} person={person} user={user} />}
      {/* keyed by the last change: a refresh from the backend shows its values in the form */}
      {may('edit') && <ContactForm key={person.updatedAt} realmId={realmId} person={person} />}
      {may('get') && <Sessions realmId={realmId} person={person} canRevoke={may('update')} />}
      {may('get') && <Otp realmId={realmId} person={person} canReset={may('update') && !self} />}
      {may('get') && <PersonUpstreamLinks realmId={realmId} person={person} canRemove={may('edit')} />}
      {may('update') && !self && <TemporaryPassword realmId={realmId} person={person} />}
      <section className="person-drawer__section">
        <h3>{t('people.person.timeline_title')}</h3>
        <AuditTimeline realmId={realmId} accountId={person.id} />
      </section>
    </>
  );
}

/** Issue 14: the account's Ali Living identity, or why there is none yet (the server retries on its own). */
function AliLivingLink({ link }: { link: PersonDetail['aliLiving'] }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (!link) return <>{t('people.person.aliliving_never')}</>;
  if (link.identityId) {
    return (
      <span data-testid="person-aliliving">
        <span dir="ltr">{link.identityId}</span>
        {link.linkedAt !== null && <> · {format.dateTime(link.linkedAt)}</>}
      </span>
    );
  }
  return (
    <span data-testid="person-aliliving">
      {t('people.person.aliliving_pending')}
      {link.lastError && (
        <>
          {' · '}
          <span dir="ltr">{link.lastError}</span>
        </>
      )}
    </span>
  );
}

function ContactForm({ realmId, person }: { realmId: string; person: PersonDetail }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ email: string; phone: string }>();
  const update = useUpdatePerson(realmId, person.id);
  const shape = updatePersonBody.shape;
  const onFinish = (v: { email: string; phone: string }) =>
    update.mutate(
      { email: v.email ? v.email : null, phone: v.phone ? v.phone : null },
      { onSuccess: () => showInfo((say) => say('people.person.saved')), onError: (err) => form.setFields(fieldError(err) as never) },
    );
  return (
    <section className="person-drawer__section">
      <h3>{t('people.person.edit_contact')}</h3>
      <Form form={form} layout="vertical" initialValues={{ email: person.email ?? '', phone: person.phone ?? '' }} onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="email"
          htmlFor="person-edit-email"
          label={t('people.person.email')}
          rules={rulesFor(shape.email, t)}
          extra={t('people.person.contact_hint')}
        >
          <Input id="person-edit-email" type="email" maxLength={254} dir="ltr" />
        </Form.Item>
        <Form.Item name="phone" htmlFor="person-edit-phone" label={t('people.person.phone')} rules={rulesFor(shape.phone, t)}>
          <Input id="person-edit-phone" inputMode="tel" maxLength={32} dir="ltr" />
        </Form.Item>
        <Button htmlType="submit" loading={update.isPending} data-testid="person-contact-save">
          {t('people.person.save')}
        </Button>
      </Form>
    </section>
  );
}

function Sessions({ realmId, person, canRevoke }: { realmId: string; person: PersonDetail; canRevoke: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { data, isPending } = usePersonSessions(realmId, person.id);
  const { revokeSession } = usePersonSecurity(realmId, person.id);
  const end = (sessionId?: string) =>
    revokeSession.mutate(sessionId, { onSuccess: (r) => showInfo((say) => say('people.person.revoked', { count: r.revoked })) });
  const items = data?.items ?? [];
  return (
    <section className="person-drawer__section" data-testid="person-sessions">
      <Space className="person-drawer__heading" wrap>
        <h3>{t('people.person.sessions_title')}</h3>
        {canRevoke && items.length > 0 && (
          <Popconfirm title={t('people.person.confirm_revoke_all', { name: person.username })} onConfirm={() => end()}>
            <Button size="small" danger data-testid="person-revoke-all">
              {t('people.person.revoke_all')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      <List
        loading={isPending}
        dataSource={items}
        locale={{ emptyText: t('people.person.sessions_empty') }}
        renderItem={(s) => (
          <List.Item
            data-testid="person-session"
            actions={
              canRevoke
                ? [
                    <Popconfirm key="revoke" title={t('people.person.confirm_revoke')} onConfirm={() => end(s.id)}>
                      <Button size="small" danger>
                        {t('people.person.revoke')}
                      </Button>
                    </Popconfirm>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <span dir="auto" className="person-drawer__value">
                  {s.userAgent || '—'}
                </span>
              }
              description={
                <span>
                  {t('people.person.session_ip')}: <span dir="ltr">{s.ip}</span> · {t('people.person.session_created')}: {format.dateTime(s.createdAt)} ·{' '}
                  {t('people.person.session_last_seen')}: {format.dateTime(s.lastSeenAt)}
                </span>
              }
            />
          </List.Item>
        )}
      />
    </section>
  );
}

function Otp({ realmId, person, canReset }: { realmId: string; person: PersonDetail; canReset: boolean }) {
  const { t } = useTranslation();
  const { data } = usePersonOtp(realmId, person.id);
  const { resetOtp } = usePersonSecurity(realmId, person.id);
  const state = data?.enabled ? 'otp_on' : data?.pending ? 'otp_pending' : 'otp_off';
  const reset = () =>
    confirm({
      title: t('people.person.confirm_otp_reset', { name: person.username }),
      onOk: () => resetOtp.mutateAsync().then(() => showInfo((say) => say('people.person.otp_reset_done'))),
    });
  return (
    <section className="person-drawer__section" data-testid="person-otp">
      <h3>{t('people.person.otp_title')}</h3>
      <Space wrap>
        <Badge status={data?.enabled ? 'success' : 'default'} text={<span data-testid="person-otp-state">{t(`people.person.${state}`)}</span>} />
        {data?.enabled && <span>{t('people.person.otp_codes_left', { count: data.recoveryCodesLeft })}</span>}
        {canReset && (data?.enabled || data?.pending) && (
          <Button size="small" danger onClick={reset} data-testid="person-otp-reset">
            {t('people.person.otp_reset')}
          </Button>
        )}
      </Space>
    </section>
  );
}

function TemporaryPassword({ realmId, person }: { realmId: string; person: PersonDetail }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const { setPassword } = usePersonSecurity(realmId, person.id);
  const onFinish = ({ password }: { password: string }) =>
    setPassword.mutate(password, {
      onSuccess: () => {
        form.resetFields();
        showInfo((say) => say('people.person.temp_password_done'));
      },
    });
  return (
    <section className="person-drawer__section">
      <h3>{t('people.person.temp_password')}</h3>
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item
          name="password"
          htmlFor="person-temp-password"
          label={t('people.person.password')}
          extra={t('people.person.temp_password_hint')}
          rules={rulesFor(personPasswordBody.shape.password, t)}
        >
          <Input.Password id="person-temp-password" autoComplete="new-password" />
        </Form.Item>
        <Button htmlType="submit" loading={setPassword.isPending} data-testid="person-temp-password-save">
          {t('people.person.temp_password')}
        </Button>
      </Form>
    </section>
  );
}
