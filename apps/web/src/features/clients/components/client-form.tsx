/**
 * Client detail / edit (SPEC §2 "client detail/edit", §3, §5) in a drawer: create a client or
 * change one. The form mounts once the client has loaded (STYLE §15). A new client's secret is
 * handed to `onCreated`, which shows it once; it is never kept here.
 */
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Divider from 'antd/es/divider';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Space from 'antd/es/space';
import Spin from 'antd/es/spin';
import Switch from 'antd/es/switch';
import theme from 'antd/es/theme';
import { CLIENT_LIMITS, clientFields, type ClientCreated, type ClientScope, type ClientView } from '@umbo/contracts/clients';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';
import { showInfo } from '../../../lib/feedback';
import { useClient } from '../api/client-detail';
import { useCreateClient, useUpdateClient } from '../api/client-save';
import { AuthFields, SigninFields, TokenFields } from './client-form-sections';
import { newClientValues, toCreateBody, toUpdateBody, valuesFromClient, type ClientFormValues } from './client-form-values';
import { showSaveError } from './save-error';
import { randomClientId } from './random-id';

const f = clientFields.shape;
const FORM_FIELDS = ['name', 'clientId', 'desc', 'redirectUris', 'postLogoutRedirectUris', 'loginUrl', 'registUrl', 'jwks', 'grantTypes', 'sourceRanges'];

export interface ClientFormDrawerProps {
  scope: ClientScope;
  /** undefined: a new client */
  clientId?: string | undefined;
  onClose: () => void;
  onCreated: (created: ClientCreated) => void;
}

export function ClientFormDrawer({ scope, clientId, onClose, onCreated }: ClientFormDrawerProps) {
  const { t } = useTranslation();
  const { data, isPending, error } = useClient(scope, clientId);
  const editing = clientId !== undefined;
  return (
    <Drawer
      open
      onClose={onClose}
      title={editing ? t('clients.edit_title', { name: data?.name ?? clientId }) : t('clients.create_title')}
      size="large"
      styles={{ wrapper: { width: 'min(760px, 100vw)' } }}
      destroyOnHidden
      data-testid="client-form-drawer"
    >
      {editing && error ? (
        <span role="alert">{error.message}</span>
      ) : editing && (isPending || !data) ? (
        <Spin />
      ) : (
        <ClientForm scope={scope} client={data} onDone={onClose} onCreated={onCreated} />
      )}
    </Drawer>
  );
}

function ClientForm({
  scope,
  client,
  onDone,
  onCreated,
}: {
  scope: ClientScope;
  client: ClientView | undefined;
  onDone: () => void;
  onCreated: (c: ClientCreated) => void;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [form] = Form.useForm<ClientFormValues>();
  const create = useCreateClient(scope);
  const update = useUpdateClient(scope);
  const isSub = Boolean(client?.parentClientId);
  const id = 'client-form';

  const submit = (v: ClientFormValues) => {
    const onError = (err: Error) => showSaveError(form, err, FORM_FIELDS);
    if (!client) {
      create.mutate(toCreateBody(v), {
        onSuccess: (created) => {
          showInfo(() => t('clients.created', { name: created.client.name }));
          onCreated(created);
        },
        onError,
      });
    } else {
      update.mutate(
        { clientId: client.clientId, body: toUpdateBody(v, isSub) },
        {
          onSuccess: () => {
            showInfo(() => t('clients.saved'));
            onDone();
          },
          onError,
        },
      );
    }
  };

  return (
    <Form<ClientFormValues>
      form={form}
      layout="vertical"
      initialValues={client ? valuesFromClient(client) : newClientValues()}
      onFinish={submit}
      scrollToFirstError
      data-testid="client-form"
    >
      <Divider titlePlacement="start">{t('clients.section_basic')}</Divider>
      <Form.Item name="name" label={t('clients.name')} htmlFor={`${id}-name`} rules={rulesFor(f.name, t)}>
        <Input id={`${id}-name`} maxLength={CLIENT_LIMITS.nameMax} dir="auto" autoComplete="off" />
      </Form.Item>
      <Form.Item label={t('clients.client_id')} htmlFor={`${id}-client-id`} extra={client ? undefined : t('clients.client_id_hint')} required={!client}>
        <div className="client-form__id">
          <Form.Item name="clientId" noStyle rules={client ? [] : rulesFor(f.clientId, t)}>
            <Input id={`${id}-client-id`} dir="ltr" disabled={Boolean(client)} maxLength={CLIENT_LIMITS.clientIdMax} autoComplete="off" spellCheck={false} />
          </Form.Item>
          {!client && (
            <Button icon={<ReloadOutlined />} onClick={() => form.setFieldValue('clientId', randomClientId())} data-testid="client-id-generate">
              {t('clients.client_id_generate')}
            </Button>
          )}
        </div>
      </Form.Item>
      <Form.Item name="desc" label={t('clients.description')} htmlFor={`${id}-desc`} extra={t('clients.description_hint')} rules={rulesFor(f.desc, t)}>
        <Input id={`${id}-desc`} maxLength={50} showCount dir="auto" />
      </Form.Item>
      <Form.Item name="enabled" label={t('clients.status')} htmlFor={`${id}-enabled`} valuePropName="checked">
        <Switch id={`${id}-enabled`} />
      </Form.Item>
      {isSub && (
        <>
          <Form.Item name="allowAuthCode" valuePropName="checked" extra={t('clients.allow_auth_code_hint')}>
            <Checkbox id={`${id}-allow-code`}>{t('clients.allow_auth_code')}</Checkbox>
          </Form.Item>
          <Form.Item name="allowToken" valuePropName="checked" extra={t('clients.allow_token_hint')}>
            <Checkbox id={`${id}-allow-token`}>{t('clients.allow_token')}</Checkbox>
          </Form.Item>
        </>
      )}

      <Divider titlePlacement="start">{t('clients.section_signin')}</Divider>
      <SigninFields idPrefix={id} />
      <Divider titlePlacement="start">{t('clients.section_tokens')}</Divider>
      <TokenFields idPrefix={id} />
      <Divider titlePlacement="start">{t('clients.section_auth')}</Divider>
      <AuthFields idPrefix={id} />

      {/* Stays in view at the bottom of the drawer while the long form scrolls. */}
      <Space className="client-form__footer" style={{ background: token.colorBgElevated, borderTop: `1px solid ${token.colorSplit}` }}>
        <Button type="primary" htmlType="submit" loading={create.isPending || update.isPending} data-testid="client-save">
          {t('clients.save')}
        </Button>
        <Button onClick={onDone}>{t('clients.cancel')}</Button>
      </Space>
    </Form>
  );
}
