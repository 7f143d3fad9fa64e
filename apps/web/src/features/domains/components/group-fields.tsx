/**
 * The OAuth config, email config and sign-in protection groups of the domain form. Protection
 * shows today's default beside every number and the bounds the server enforces. The OAuth
 * group's last three fields are issue 14's "Sign in with …" button and e-mail linking.
 */
import Checkbox from 'antd/es/checkbox';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Row from 'antd/es/row';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { PROTECTION_BOUNDS, PROTECTION_DEFAULTS, realmOAuthInput, realmProtectionInput } from '@umbo/contracts/realm-groups';
import { realmEmailInput } from '@umbo/contracts/realm-settings';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';
import { SecretInput } from './backend-fields';

const oauth = realmOAuthInput.shape;

export function OAuthFields({ storedSecret }: { storedSecret: boolean }) {
  const { t } = useTranslation();
  const url = (name: 'loginEndpoint' | 'tokenEndpoint' | 'oidcWellknowEndpoint' | 'redirectURI' | 'loginURI') => (
    <Form.Item name={['oauth', name]} label={name} htmlFor={`oauth-${name}`} rules={rulesFor(oauth[name], t)}>
      <Input id={`oauth-${name}`} dir="ltr" />
    </Form.Item>
  );
  return (
    <>
      <Form.Item name={['oauth', 'isOIDC']} valuePropName="checked">
        <Checkbox id="oauth-isOIDC">isOIDC</Checkbox>
      </Form.Item>
      <Form.Item name={['oauth', 'clientID']} label="clientID" htmlFor="oauth-clientID" rules={rulesFor(oauth.clientID, t)}>
        <Input id="oauth-clientID" dir="ltr" />
      </Form.Item>
      <Form.Item name={['oauth', 'clientSecret']} label="clientSecret" htmlFor="oauth-clientSecret">
        <SecretInput id="oauth-clientSecret" stored={storedSecret} />
      </Form.Item>
      {url('loginEndpoint')}
      {url('tokenEndpoint')}
      {url('oidcWellknowEndpoint')}
      <Form.Item name={['oauth', 'accessTokenScope']} label="accessTokenScope" htmlFor="oauth-accessTokenScope" rules={rulesFor(oauth.accessTokenScope, t)}>
        <Input id="oauth-accessTokenScope" dir="ltr" />
      </Form.Item>
      <Form.Item name={['oauth', 'redirectURIOverwrite']} valuePropName="checked">
        <Checkbox id="oauth-redirectURIOverwrite">redirectURIOverwrite</Checkbox>
      </Form.Item>
      {url('redirectURI')}
      {url('loginURI')}
      <Form.Item
        name={['oauth', 'displayName']}
        label={t('domains.oauth_display_name')}
        htmlFor="oauth-displayName"
        rules={rulesFor(oauth.displayName, t)}
        extra={t('domains.oauth_display_name_help')}
      >
        <Input id="oauth-displayName" dir="auto" maxLength={64} />
      </Form.Item>
      <Form.Item
        name={['oauth', 'iconUrl']}
        label={t('domains.oauth_icon_url')}
        htmlFor="oauth-iconUrl"
        rules={rulesFor(oauth.iconUrl, t)}
        extra={t('domains.oauth_icon_url_help')}
      >
        <Input id="oauth-iconUrl" dir="ltr" placeholder="https://" />
      </Form.Item>
      {/* issue 14: off by default; a warning because a wrong "verified" upstream takes accounts over */}
      <Form.Item
        name={['oauth', 'linkVerifiedEmail']}
        label={t('domains.oauth_link_verified_email')}
        htmlFor="oauth-linkVerifiedEmail"
        valuePropName="checked"
        extra={<Typography.Text type="warning">{t('domains.oauth_link_verified_email_help')}</Typography.Text>}
      >
        <Switch id="oauth-linkVerifiedEmail" />
      </Form.Item>
    </>
  );
}

const email = realmEmailInput.shape;

export function EmailFields({ storedSecret }: { storedSecret: boolean }) {
  const { t } = useTranslation();
  return (
    <Row gutter={16}>
      <Col xs={24} sm={16}>
        <Form.Item name={['email', 'host']} label={t('domains.smtp_host')} htmlFor="email-host" rules={rulesFor(email.host, t)}>
          <Input id="email-host" dir="ltr" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={8}>
        <Form.Item name={['email', 'port']} label={t('domains.smtp_port')} htmlFor="email-port" rules={rulesFor(email.port, t)}>
          <InputNumber id="email-port" min={1} max={65535} style={{ width: '100%' }} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name={['email', 'secure']} valuePropName="checked">
          <Checkbox id="email-secure">{t('domains.smtp_secure')}</Checkbox>
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name={['email', 'user']} label={t('domains.smtp_user')} htmlFor="email-user">
          <Input id="email-user" dir="ltr" autoComplete="off" />
        </Form.Item>
      </Col>
      <Col xs={24} sm={12}>
        <Form.Item name={['email', 'password']} label={t('domains.smtp_password')} htmlFor="email-password">
          <SecretInput id="email-password" stored={storedSecret} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name={['email', 'from']} label={t('domains.smtp_from')} htmlFor="email-from" rules={rulesFor(email.from, t)}>
          <Input id="email-from" dir="ltr" />
        </Form.Item>
      </Col>
    </Row>
  );
}

const COUNTER_FIELDS = ['freeFailures', 'delaySeconds', 'lockAfter', 'lockMinutes', 'maxLockMinutes', 'windowMinutes'] as const;
const LABELS: Record<(typeof COUNTER_FIELDS)[number], string> = {
  freeFailures: 'free_failures',
  delaySeconds: 'delay_seconds',
  lockAfter: 'lock_after',
  lockMinutes: 'lock_minutes',
  maxLockMinutes: 'max_lock_minutes',
  windowMinutes: 'window_minutes',
};

function NumberItem(p: { name: string[]; label: string; bounds: readonly [number, number]; def: number; schema: Parameters<typeof rulesFor>[0] }) {
  const { t } = useTranslation();
  const id = `protection-${p.name.join('-')}`;
  return (
    <Form.Item
      name={['protection', ...p.name]}
      label={p.label}
      htmlFor={id}
      rules={rulesFor(p.schema, t)}
      extra={`${t('domains.default_value', { value: p.def })} · ${p.bounds[0]}–${p.bounds[1]}`}
    >
      <InputNumber id={id} min={p.bounds[0]} max={p.bounds[1]} style={{ width: '100%' }} />
    </Form.Item>
  );
}

export function ProtectionFields() {
  const { t } = useTranslation();
  const counter = (kind: 'account' | 'ip') => (
    <Col xs={24} md={12}>
      <Typography.Title level={5}>{t(kind === 'account' ? 'domains.protection_account' : 'domains.protection_ip')}</Typography.Title>
      {COUNTER_FIELDS.map((f) => (
        <NumberItem
          key={f}
          name={[kind, f]}
          label={t(`domains.${LABELS[f]}` as 'domains.free_failures')}
          bounds={PROTECTION_BOUNDS[kind][f]}
          def={PROTECTION_DEFAULTS[kind][f]}
          schema={realmProtectionInput.shape[kind].shape[f]}
        />
      ))}
    </Col>
  );
  const s = realmProtectionInput.shape;
  return (
    <>
      <Typography.Paragraph type="secondary">{t('domains.protection_help')}</Typography.Paragraph>
      <Row gutter={24}>
        {counter('account')}
        {counter('ip')}
      </Row>
      <Row gutter={24}>
        <Col xs={24} md={8}>
          <NumberItem
            name={['codeMaxAttempts']}
            label={t('domains.code_max_attempts')}
            bounds={PROTECTION_BOUNDS.codeMaxAttempts}
            def={PROTECTION_DEFAULTS.codeMaxAttempts}
            schema={s.codeMaxAttempts}
          />
        </Col>
        <Col xs={24} md={8}>
          <NumberItem
            name={['captchaAfterFailures']}
            label={t('domains.captcha_after_failures_n')}
            bounds={PROTECTION_BOUNDS.captchaAfterFailures}
            def={PROTECTION_DEFAULTS.captchaAfterFailures}
            schema={s.captchaAfterFailures}
          />
        </Col>
        <Col xs={24} md={8}>
          <NumberItem
            name={['captchaAfterFormRequests']}
            label={t('domains.captcha_after_form_requests')}
            bounds={PROTECTION_BOUNDS.captchaAfterFormRequests}
            def={PROTECTION_DEFAULTS.captchaAfterFormRequests}
            schema={s.captchaAfterFormRequests}
          />
        </Col>
      </Row>
    </>
  );
}
