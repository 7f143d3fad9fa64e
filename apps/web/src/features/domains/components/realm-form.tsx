/**
 * The domain form (create and edit) in a drawer: every field group of SPEC §3 — basic, methods,
 * backend of the chosen type, OAuth, email (with the test mail), sign-in protection (today's
 * defaults shown), logo and icon, certificate validity. Rules are the contracts schemas.
 * It mounts once the domain has loaded (STYLE §15); without domain.edit it is read-only.
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Col from 'antd/es/col';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import theme from 'antd/es/theme';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import { BACKEND_TYPES, CAPTCHA_POLICIES, FIND_BACK_METHODS, LOGIN_METHODS, REGIST_METHODS, realmSettingsPatch } from '@umbo/contracts/realm-settings';
import { realmCreate, type RealmDetail } from '@umbo/contracts/realms';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';
import { showInfo } from '../../../lib/feedback';
import { useRealm } from '../api/get-realm';
import { useCreateRealm, useUpdateRealm } from '../api/realm-mutations';
import { BackendFields, emptyBackend } from './backend-fields';
import { BrandingField } from './branding-field';
import { EmailFields, OAuthFields, ProtectionFields } from './group-fields';
import { TestMail } from './test-mail';
import { fromDetail, NEW_REALM, toRequests, type FormValues } from './realm-form-values';

const s = realmSettingsPatch.shape;

/** Tags are typed as text: whole numbers become numbers, anything else stays for the schema to refuse. */
const noticeDays = (v: unknown) => (Array.isArray(v) ? v.map((x: unknown) => (typeof x === 'string' && /^\d{1,6}$/.test(x.trim()) ? Number(x) : x)) : v);

export function RealmDrawer(p: { open: boolean; opened: number; realmId?: string | undefined; canEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const editing = Boolean(p.realmId);
  const { data, isLoading } = useRealm(p.open ? p.realmId : undefined);
  return (
    <Drawer
      open={p.open}
      onClose={p.onClose}
      title={editing ? t('domains.edit_title', { realm: p.realmId }) : t('domains.create_title')}
      size="large"
      styles={{ wrapper: { width: 'min(820px, 100vw)' } }}
      destroyOnHidden
      data-testid="realm-drawer"
    >
      {editing && (isLoading || !data) ? <Spin /> : <RealmForm key={p.opened} detail={editing ? data : undefined} canEdit={p.canEdit} onDone={p.onClose} />}
    </Drawer>
  );
}

function RealmForm({ detail, canEdit, onDone }: { detail: RealmDetail | undefined; canEdit: boolean; onDone: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  // A form instance per opening (the drawer destroys its content when closed): nothing of a
  // previous domain or a cancelled form comes back.
  const [form] = Form.useForm<FormValues>();
  const create = useCreateRealm();
  const update = useUpdateRealm();
  const initial = detail ? fromDetail(detail) : NEW_REALM;
  const type = Form.useWatch('backend_type', form) ?? initial.backend_type;
  const useBackend = Form.useWatch('useBackend', form) ?? initial.useBackend;
  const oauthOn = Form.useWatch('oauthOn', form) ?? initial.oauthOn;
  const emailOn = Form.useWatch('emailOn', form) ?? initial.emailOn;
  const settings = detail?.settings;
  const backendShown = type !== 'default' || useBackend;

  const submit = async (values: FormValues) => {
    const req = toRequests(values, detail);
    if (!detail) {
      const created = await create.mutateAsync({ realmId: values.realmId, domain: values.domain, description: values.description, settings: req.settings });
      showInfo(() => t('domains.created', { realm: created.realmId }));
    } else {
      await update.mutateAsync({ realmId: detail.realmId, realm: req.realm, settings: req.settings });
      showInfo(() => t('domains.saved'));
    }
    onDone();
  };
  const methods = (
    name: 'backend_support_login_method' | 'backend_support_regist_method' | 'backend_support_find_back_method',
    all: readonly string[],
    label: string,
  ) => (
    // Not `required`: antd would put aria-required on the checkbox group's div, which ARIA
    // does not allow there (axe); the same schema still refuses an empty list.
    <Form.Item name={name} label={label} rules={rulesFor(s[name].unwrap(), t).filter((r) => !('required' in r))}>
      <Checkbox.Group options={all.map((m) => ({ value: m, label: t(`domains.method_${m}` as 'domains.method_password') }))} />
    </Form.Item>
  );

  return (
    <Form<FormValues>
      form={form}
      layout="vertical"
      initialValues={initial}
      disabled={!canEdit}
      onFinish={(v) => void submit(v).catch(() => undefined)}
      onValuesChange={(changed: Partial<FormValues>) => {
        // A new type starts from an empty group of that type (the old one does not fit it).
        if (changed.backend_type && changed.backend_type !== initial.backend_type) form.setFieldValue('backend', emptyBackend(changed.backend_type));
      }}
      scrollToFirstError
      data-testid="realm-form"
    >
      <Divider titlePlacement="start">{t('domains.section_basic')}</Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="realmId"
            label={t('domains.realm_id')}
            htmlFor="realm-id"
            extra={t('domains.realm_id_help')}
            rules={detail ? [] : rulesFor(realmCreate.shape.realmId, t)}
          >
            <Input id="realm-id" dir="ltr" disabled={Boolean(detail)} maxLength={63} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="domain" label={t('domains.domain')} htmlFor="realm-domain" rules={rulesFor(realmCreate.shape.domain, t)}>
            <Input id="realm-domain" dir="ltr" maxLength={255} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="description" label={t('domains.description')} htmlFor="realm-description" rules={rulesFor(realmCreate.shape.description, t)}>
        <Input id="realm-description" maxLength={50} showCount />
      </Form.Item>

      <Divider titlePlacement="start">{t('domains.section_methods')}</Divider>
      {methods('backend_support_login_method', LOGIN_METHODS, t('domains.login_methods'))}
      {methods('backend_support_regist_method', REGIST_METHODS, t('domains.regist_methods'))}
      {methods('backend_support_find_back_method', FIND_BACK_METHODS, t('domains.find_back_methods'))}
      <Form.Item name="backend_support_login_regions" label={t('domains.regions')} htmlFor="realm-regions" extra={t('domains.regions_help')}>
        <Select id="realm-regions" mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
      </Form.Item>
      <Form.Item name="needActive" valuePropName="checked">
        <Checkbox id="realm-needActive">{t('domains.need_active')}</Checkbox>
      </Form.Item>
      {/* Fixed rows, not autoSize: antd measures with a hidden textarea left in <body>, which
          widens the page in right-to-left layouts. */}
      <Form.Item name="activeEmailTpl" label={t('domains.active_tpl')} htmlFor="realm-activeEmailTpl">
        <Input.TextArea id="realm-activeEmailTpl" rows={3} />
      </Form.Item>
      <Form.Item name="resetEmailTpl" label={t('domains.reset_tpl')} htmlFor="realm-resetEmailTpl">
        <Input.TextArea id="realm-resetEmailTpl" rows={3} />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="captchaPolicy" label={t('domains.captcha_policy')}>
            <Radio.Group options={CAPTCHA_POLICIES.map((c) => ({ value: c, label: t(`domains.captcha_${c}` as 'domains.captcha_always') }))} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="passwordMinLength"
            label={t('domains.password_min')}
            htmlFor="realm-passwordMinLength"
            rules={rulesFor(s.passwordMinLength.unwrap(), t)}
          >
            <InputNumber id="realm-passwordMinLength" min={6} max={128} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="revealMissingAccounts" valuePropName="checked">
        <Checkbox id="realm-reveal">{t('domains.reveal_missing')}</Checkbox>
      </Form.Item>

      <Divider titlePlacement="start">{t('domains.section_backend')}</Divider>
      <Form.Item name="backend_type" label={t('domains.backend_type')} htmlFor="realm-backend-type">
        <Select
          id="realm-backend-type"
          data-testid="backend-type"
          options={BACKEND_TYPES.map((b) => ({ value: b, label: t(`domains.type_${b}` as 'domains.type_default') }))}
        />
      </Form.Item>
      {type === 'default' && (
        <Form.Item name="useBackend">
          <Radio.Group
            options={[
              { value: false, label: t('domains.backend_default_none') },
              { value: true, label: t('domains.backend_default_it') },
            ]}
          />
        </Form.Item>
      )}
      {backendShown && (
        <>
          <Row gutter={16}>
            <Col xs={24} md={12}>
              <Form.Item
                name="backend_realm_id"
                label={t('domains.backend_realm_id')}
                htmlFor="realm-backend-realm-id"
                rules={rulesFor(s.backend_realm_id.unwrap(), t)}
                required
              >
                <Input id="realm-backend-realm-id" dir="ltr" />
              </Form.Item>
            </Col>
            <Col xs={24} md={12}>
              <Form.Item
                name="backend_regist_url"
                label={t('domains.backend_regist_url')}
                htmlFor="realm-backend-regist-url"
                rules={rulesFor(s.backend_regist_url.unwrap(), t)}
                required
              >
                <Input id="realm-backend-regist-url" dir="ltr" />
              </Form.Item>
            </Col>
          </Row>
          <BackendFields
            type={type}
            storedSecret={Boolean(
              settings?.backend &&
              ('hasAppSercet' in settings.backend
                ? settings.backend.hasAppSercet
                : 'hasAppCloudSecret' in settings.backend && settings.backend.hasAppCloudSecret),
            )}
          />
        </>
      )}

      <Divider titlePlacement="start">{t('domains.section_oauth')}</Divider>
      <Form.Item name="oauthOn" valuePropName="checked">
        <Checkbox id="realm-oauth-on">{t('domains.oauth_enabled')}</Checkbox>
      </Form.Item>
      {oauthOn && <OAuthFields storedSecret={Boolean(settings?.oauth?.hasClientSecret)} />}

      <Divider titlePlacement="start">{t('domains.section_email')}</Divider>
      <Form.Item name="emailOn" valuePropName="checked">
        <Checkbox id="realm-email-on">{t('domains.email_enabled')}</Checkbox>
      </Form.Item>
      {emailOn && <EmailFields storedSecret={Boolean(settings?.email?.hasPassword)} />}
      {detail && canEdit ? <TestMail realmId={detail.realmId} /> : null}

      <Divider titlePlacement="start">{t('domains.section_protection')}</Divider>
      <ProtectionFields />

      <Divider titlePlacement="start">{t('domains.section_branding')}</Divider>
      {detail ? (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <BrandingField realmId={detail.realmId} kind="logo" url={detail.settings.logo_img_url} canEdit={canEdit} />
          <BrandingField realmId={detail.realmId} kind="icon" url={detail.settings.icon_img_url} canEdit={canEdit} />
        </Space>
      ) : (
        <Alert type="info" showIcon title={t('domains.save_create_first')} />
      )}

      <Divider titlePlacement="start">{t('domains.section_certs')}</Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="accountCertValidity"
            label={t('domains.account_cert_validity')}
            htmlFor="realm-acv"
            rules={rulesFor(s.accountCertValidity.unwrap(), t)}
          >
            <InputNumber id="realm-acv" min={30} max={36500} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="realmMiddleCertValidity"
            label={t('domains.middle_cert_validity')}
            htmlFor="realm-mcv"
            rules={rulesFor(s.realmMiddleCertValidity.unwrap(), t)}
          >
            <InputNumber id="realm-mcv" min={30} max={36500} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="certExpiryNoticeDays"
            label={t('domains.expiry_notice_days')}
            htmlFor="realm-expiry-days"
            extra={t('domains.expiry_notice_days_help')}
            normalize={noticeDays}
            rules={rulesFor(s.certExpiryNoticeDays.unwrap(), t)}
          >
            <Select id="realm-expiry-days" mode="tags" tokenSeparators={[',', ' ']} open={false} suffixIcon={null} />
          </Form.Item>
        </Col>
      </Row>
      {canEdit && (
        // Stays in view at the bottom of the drawer while the long form scrolls.
        <Space
          style={{
            position: 'sticky',
            bottom: 0,
            zIndex: 2,
            width: '100%',
            paddingBlock: 12,
            background: token.colorBgElevated,
            borderTop: `1px solid ${token.colorSplit}`,
          }}
        >
          <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending} data-testid="realm-save">
            {t('domains.save')}
          </Button>
          <Button onClick={onDone} disabled={false}>
            {t('domains.cancel')}
          </Button>
        </Space>
      )}
    </Form>
  );
}
