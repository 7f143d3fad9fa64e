/**
 * Son-client add (SPEC §2, §3 "Sub client", §5): a sub client under a top-level client. Its id
 * is unique in the domain ("Sub-client ID already exists" is said under the field); its name
 * follows SPEC §5's sub name rule. allowAuthCode and allowToken are what the parent may do
 * for it with a user's access token.
 */
import ReloadOutlined from '@ant-design/icons/ReloadOutlined';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { CLIENT_LIMITS, redirectUriSchema, subClientCreateBody, type ClientCreated, type ClientListItem, type ClientScope } from '@umbo/contracts/clients';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useAddSubClient } from '../api/sub-client-add';
import { randomClientId } from './random-id';
import { showSaveError } from './save-error';
import { StringListField, URL_PLACEHOLDER } from './string-list-field';

interface Values {
  name: string;
  desc: string;
  subClientId: string;
  allowAuthCode: boolean;
  allowToken: boolean;
  redirectUris: string[];
}

const shape = subClientCreateBody.shape;
const FIELDS = ['name', 'desc', 'subClientId', 'redirectUris'];

export function SubClientDialog(props: {
  scope: ClientScope;
  parent: Pick<ClientListItem, 'clientId' | 'name'>;
  onClose: () => void;
  onCreated: (c: ClientCreated) => void;
}) {
  const { scope, parent, onClose, onCreated } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const add = useAddSubClient(scope);
  const id = 'sub-client';

  const onFinish = (v: Values) =>
    add.mutate(
      {
        parentId: parent.clientId,
        body: {
          name: v.name,
          desc: v.desc,
          subClientId: v.subClientId.trim(),
          allowAuthCode: v.allowAuthCode,
          allowToken: v.allowToken,
          redirectUris: v.redirectUris.map((u) => u.trim()).filter(Boolean),
        },
      },
      {
        onSuccess: (created) => {
          showInfo(() => t('clients.sub_created', { name: created.client.name }));
          onCreated(created);
        },
        onError: (err) => showSaveError(form, err, FIELDS),
      },
    );

  return (
    <Modal
      open
      title={t('clients.sub_title', { name: parent.name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('clients.save')}
      cancelText={t('clients.cancel')}
      confirmLoading={add.isPending}
      destroyOnHidden
      width={640}
      data-testid="sub-client-dialog"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ name: '', desc: '', subClientId: randomClientId(), allowAuthCode: false, allowToken: false, redirectUris: [''] }}
        onFinish={onFinish}
        preserve={false}
      >
        <Form.Item label={t('clients.sub_client_id')} htmlFor={`${id}-id`} extra={t('clients.sub_client_id_hint')} required>
          <div className="client-form__id">
            <Form.Item name="subClientId" noStyle rules={rulesFor(shape.subClientId.unwrap(), t)}>
              <Input id={`${id}-id`} dir="ltr" maxLength={CLIENT_LIMITS.clientIdMax} autoComplete="off" spellCheck={false} />
            </Form.Item>
            <Button icon={<ReloadOutlined />} onClick={() => form.setFieldValue('subClientId', randomClientId())}>
              {t('clients.client_id_generate')}
            </Button>
          </div>
        </Form.Item>
        <Form.Item name="name" label={t('clients.sub_name')} htmlFor={`${id}-name`} rules={rulesFor(shape.name, t)}>
          <Input id={`${id}-name`} dir="ltr" maxLength={50} autoComplete="off" />
        </Form.Item>
        <Form.Item name="desc" label={t('clients.description')} htmlFor={`${id}-desc`} extra={t('clients.description_hint')} rules={rulesFor(shape.desc, t)}>
          <Input id={`${id}-desc`} maxLength={50} showCount dir="auto" />
        </Form.Item>
        <StringListField
          name="redirectUris"
          id={`${id}-redirect`}
          label={t('clients.redirect_uris')}
          extra={t('clients.redirect_uris_hint')}
          schema={redirectUriSchema}
          min={1}
          max={CLIENT_LIMITS.redirectUrisMax}
          addLabel={t('clients.add_url')}
          placeholder={URL_PLACEHOLDER}
        />
        <Form.Item name="allowAuthCode" valuePropName="checked" extra={t('clients.allow_auth_code_hint')}>
          <Checkbox id={`${id}-allow-code`}>{t('clients.allow_auth_code')}</Checkbox>
        </Form.Item>
        <Form.Item name="allowToken" valuePropName="checked" extra={t('clients.allow_token_hint')}>
          <Checkbox id={`${id}-allow-token`}>{t('clients.allow_token')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
