/**
 * The client form's field groups beyond the basics: sign-in and redirects, tokens, client
 * authentication (SPEC §3 "Client" plus the OpenID Connect fields). Each field is checked by
 * the contracts schema the server checks it with; the combinations the server refuses
 * (clientRuleProblems) are said on the field they concern.
 */
import Alert from 'antd/es/alert';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio, { type RadioChangeEvent } from 'antd/es/radio';
import {
  CLIENT_LIMITS,
  CLIENT_SCOPES,
  CONFIDENTIAL_ONLY_GRANTS,
  GRANT_TYPES,
  SIGNING_ALGS,
  TOKEN_ENDPOINT_AUTH_METHODS,
  clientFields,
  redirectUriSchema,
  zSourceRange,
  type GrantType,
} from '@umbo/contracts/clients';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';
import { parseJwks, type ClientFormValues } from './client-form-values';
import { StringListField, URL_PLACEHOLDER } from './string-list-field';

const f = clientFields.shape;

const GRANT_KEYS: Record<string, `clients.grant_${string}`> = {
  authorization_code: 'clients.grant_authorization_code',
  refresh_token: 'clients.grant_refresh_token',
  client_credentials: 'clients.grant_client_credentials',
  'urn:ietf:params:oauth:grant-type:token-exchange': 'clients.grant_token_exchange',
  'urn:ietf:params:oauth:grant-type:device_code': 'clients.grant_device_code',
};

/** Phrase key of a grant type (the URN ones by their last word). */
export const grantKey = (g: string) => (GRANT_KEYS[g] ?? 'clients.grant_authorization_code') as 'clients.grant_authorization_code';

/** Rules without `required` (which antd puts as aria-required on a group's div: axe refuses it there). */
const groupRules = (schema: Parameters<typeof rulesFor>[0], t: Parameters<typeof rulesFor>[1]) => rulesFor(schema, t).filter((r) => !('required' in r));

export function SigninFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  return (
    <>
      <StringListField
        name="redirectUris"
        id={`${idPrefix}-redirect`}
        label={t('clients.redirect_uris')}
        extra={t('clients.redirect_uris_hint')}
        schema={redirectUriSchema}
        min={1}
        max={CLIENT_LIMITS.redirectUrisMax}
        addLabel={t('clients.add_url')}
        placeholder={URL_PLACEHOLDER}
      />
      <StringListField
        name="postLogoutRedirectUris"
        id={`${idPrefix}-logout`}
        label={t('clients.post_logout_uris')}
        extra={t('clients.post_logout_uris_hint')}
        schema={redirectUriSchema}
        min={0}
        max={CLIENT_LIMITS.redirectUrisMax}
        addLabel={t('clients.add_url')}
        placeholder={URL_PLACEHOLDER}
      />
      {/* Fixed rows, not autoSize: antd measures with a hidden textarea that widens RTL pages. */}
      <Form.Item
        name="loginTips"
        label={t('clients.login_tips')}
        htmlFor={`${idPrefix}-tips`}
        extra={t('clients.login_tips_hint')}
        rules={rulesFor(f.loginTips.optional(), t)}
      >
        <Input.TextArea id={`${idPrefix}-tips`} rows={2} maxLength={CLIENT_LIMITS.loginTipsMax} showCount />
      </Form.Item>
      <Form.Item
        name="loginUrl"
        label={t('clients.login_url')}
        htmlFor={`${idPrefix}-login-url`}
        extra={t('clients.login_url_hint')}
        rules={rulesFor(f.loginUrl.optional(), t)}
      >
        <Input id={`${idPrefix}-login-url`} dir="ltr" />
      </Form.Item>
      <Form.Item
        name="registUrl"
        label={t('clients.regist_url')}
        htmlFor={`${idPrefix}-regist-url`}
        extra={t('clients.regist_url_hint')}
        rules={rulesFor(f.registUrl.optional(), t)}
      >
        <Input id={`${idPrefix}-regist-url`} dir="ltr" />
      </Form.Item>
    </>
  );
}

/** Yes / No without a preselected answer: SPEC §5 "must be selected". Form.Item hands it value and onChange. */
function YesNo({ id, testId, value, onChange }: { id: string; testId: string; value?: boolean; onChange?: (e: RadioChangeEvent) => void }) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      id={id}
      value={value}
      onChange={onChange}
      data-testid={testId}
      options={[
        { value: true, label: t('clients.yes') },
        { value: false, label: t('clients.no') },
      ]}
    />
  );
}

export function TokenFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  const multiUse = Form.useWatch<boolean | undefined>('authCodeMulitUse', Form.useFormInstance());
  const chosen = [{ validator: async (_: unknown, v: unknown) => (typeof v === 'boolean' ? undefined : Promise.reject(new Error(t('clients.choose')))) }];
  return (
    <>
      <div className="client-form__pair">
        <Form.Item name="tokenExpirSec" label={t('clients.token_expir')} htmlFor={`${idPrefix}-token-sec`} rules={rulesFor(f.tokenExpirSec, t)}>
          <InputNumber id={`${idPrefix}-token-sec`} min={1} max={CLIENT_LIMITS.tokenExpirSecMax} precision={0} className="client-form__number" />
        </Form.Item>
        <Form.Item
          name="refreshtokenExpirSec"
          label={t('clients.refresh_expir')}
          htmlFor={`${idPrefix}-refresh-sec`}
          rules={rulesFor(f.refreshtokenExpirSec, t)}
        >
          <InputNumber id={`${idPrefix}-refresh-sec`} min={1} max={CLIENT_LIMITS.refreshtokenExpirSecMax} precision={0} className="client-form__number" />
        </Form.Item>
      </div>
      <Form.Item name="refreshTokenRecreate" label={t('clients.refresh_recreate')} extra={t('clients.refresh_recreate_hint')} rules={chosen} required>
        <YesNo id={`${idPrefix}-recreate`} testId="client-recreate" />
      </Form.Item>
      <Form.Item name="authCodeMulitUse" label={t('clients.auth_code_multi')} extra={t('clients.auth_code_multi_hint')} rules={chosen} required>
        <YesNo id={`${idPrefix}-multi`} testId="client-multi-use" />
      </Form.Item>
      {multiUse === true && (
        <Alert className="client-form__warning" type="warning" showIcon title={t('clients.auth_code_multi_warning')} data-testid="client-multi-use-warning" />
      )}
      <Form.Item
        name="grantTypes"
        label={t('clients.grant_types')}
        dependencies={['tokenEndpointAuthMethod']}
        rules={[
          ...groupRules(f.grantTypes, t),
          ({ getFieldValue }) => ({
            validator: async (_: unknown, grants: GrantType[] | undefined) => {
              if (!grants?.length) throw new Error(t('validation.required'));
              if (getFieldValue('tokenEndpointAuthMethod') === 'none' && grants.some((g) => CONFIDENTIAL_ONLY_GRANTS.includes(g)))
                throw new Error(t('clients.public_grants'));
            },
          }),
        ]}
      >
        <Checkbox.Group className="client-form__checks" options={GRANT_TYPES.map((g) => ({ value: g, label: t(grantKey(g)) }))} />
      </Form.Item>
      <Form.Item name="scopes" label={t('clients.scopes')} rules={groupRules(f.scopes, t)}>
        <Checkbox.Group className="client-form__checks" options={CLIENT_SCOPES.map((s) => ({ value: s, label: <span dir="ltr">{s}</span> }))} />
      </Form.Item>
      <Form.Item name="consentRequired" valuePropName="checked" extra={t('clients.consent_required_hint')}>
        <Checkbox id={`${idPrefix}-consent`}>{t('clients.consent_required')}</Checkbox>
      </Form.Item>
      <Form.Item name="signingAlg" label={t('clients.signing_alg')}>
        <Radio.Group options={SIGNING_ALGS.map((a) => ({ value: a, label: a }))} />
      </Form.Item>
    </>
  );
}

export function AuthFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const method = Form.useWatch<ClientFormValues['tokenEndpointAuthMethod'] | undefined>('tokenEndpointAuthMethod', form);
  const grants = Form.useWatch<GrantType[] | undefined>('grantTypes', form);
  return (
    <>
      <Form.Item name="tokenEndpointAuthMethod" label={t('clients.auth_method')}>
        <Radio.Group
          className="client-form__radios"
          data-testid="client-auth-method"
          options={TOKEN_ENDPOINT_AUTH_METHODS.map((m) => ({ value: m, label: t(`clients.auth_${m}`) }))}
        />
      </Form.Item>
      {method === 'private_key_jwt' && (
        <Form.Item
          name="jwks"
          label={t('clients.jwks')}
          htmlFor={`${idPrefix}-jwks`}
          extra={t('clients.jwks_hint')}
          rules={[
            { required: true, message: t('validation.required') },
            {
              validator: async (_: unknown, text: string | undefined) =>
                !text || parseJwks(text) ? undefined : Promise.reject(new Error(t('clients.jwks_invalid'))),
            },
          ]}
        >
          <Input.TextArea id={`${idPrefix}-jwks`} rows={6} dir="ltr" spellCheck={false} className="client-form__code" />
        </Form.Item>
      )}
      {grants?.includes('client_credentials') && (
        <StringListField
          name="sourceRanges"
          id={`${idPrefix}-ranges`}
          label={t('clients.source_ranges')}
          extra={t('clients.source_ranges_hint')}
          schema={zSourceRange}
          min={0}
          max={CLIENT_LIMITS.sourceRangesMax}
          addLabel={t('clients.add_range')}
          placeholder={t('clients.range_placeholder')}
        />
      )}
    </>
  );
}
