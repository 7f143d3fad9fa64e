/**
 * Add or edit a service account (SPEC §2 "sub-account add/edit"): sub name (SPEC §5) and
 * password when adding; description, registration area and "must change the password at the
 * next sign-in" both times. Every field is checked by the server's own schema.
 */
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import { serviceCreateBody, type ServiceAccountView, type ServiceScope } from '@umbo/contracts/service-accounts';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useAddService, useUpdateService } from '../api/service-save';
import { ServicePasswordFields } from './service-password-fields';

interface Values {
  subname?: string;
  password?: string;
  description?: string;
  regist_area?: string;
  first_login_need_reset_password: boolean;
}

const shape = serviceCreateBody.shape;

export function ServiceFormDialog(props: { scope: ServiceScope; ownerName: string; editing?: ServiceAccountView; onClose: () => void }) {
  const { scope, ownerName, editing, onClose } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const add = useAddService(scope);
  const update = useUpdateService(scope);
  const done = (say: 'people.service.created' | 'people.service.saved') => {
    showInfo((s) => s(say));
    onClose();
  };

  const onFinish = (v: Values) => {
    const common = { description: v.description ?? '', regist_area: v.regist_area ?? '', first_login_need_reset_password: v.first_login_need_reset_password };
    if (editing) update.mutate({ id: editing.sub_id, body: common }, { onSuccess: () => done('people.service.saved') });
    else add.mutate({ ...common, subname: v.subname!, password: v.password! }, { onSuccess: () => done('people.service.created') });
  };

  const initial: Values = editing
    ? { description: editing.description, regist_area: editing.regist_area, first_login_need_reset_password: editing.first_login_need_reset_password }
    : { first_login_need_reset_password: true };

  return (
    <Modal
      open
      title={t(editing ? 'people.service.edit_title' : 'people.service.add_title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={add.isPending || update.isPending}
      destroyOnHidden
      data-testid="service-form-dialog"
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={onFinish} requiredMark={false} preserve={false}>
        {!editing && (
          <>
            <Form.Item
              name="subname"
              htmlFor="service-subname"
              label={t('people.service.subname')}
              extra={t('people.service.subname_hint', { owner: ownerName })}
              rules={rulesFor(shape.subname, t)}
            >
              <Input id="service-subname" maxLength={50} autoComplete="off" dir="ltr" />
            </Form.Item>
            <ServicePasswordFields idPrefix="service-new" />
          </>
        )}
        <Form.Item name="description" htmlFor="service-description" label={t('people.service.description')} rules={rulesFor(shape.description, t)}>
          <Input id="service-description" maxLength={50} />
        </Form.Item>
        <Form.Item name="regist_area" htmlFor="service-regist-area" label={t('people.service.regist_area')} rules={rulesFor(shape.regist_area, t)}>
          <Input id="service-regist-area" maxLength={3} inputMode="numeric" dir="ltr" />
        </Form.Item>
        <Form.Item name="first_login_need_reset_password" valuePropName="checked">
          <Checkbox id="service-force">{t('people.service.force')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
