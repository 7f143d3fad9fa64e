/**
 * Create a person account (SPEC §3 "Person account"): user name, email, mobile number and an
 * optional temporary password, each checked by the server's own schema (SPEC §5). A name or
 * address another account holds comes back as 1205 naming the field, shown under it.
 */
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import { createPersonBody } from '@umbo/contracts/people';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-error';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { useCreatePerson } from '../api/person-save';

interface Values {
  username: string;
  email?: string;
  phone?: string;
  country?: string;
  password?: string;
}

const shape = createPersonBody.shape;
const FIELDS = ['username', 'email', 'phone', 'country', 'password'] as const;

/** A refusal naming one of the form's fields is shown under that field. */
export function fieldError(err: unknown): { name: string; errors: string[] }[] {
  const field = err instanceof ApiError && err.errData && typeof err.errData === 'object' ? (err.errData as { field?: unknown }).field : undefined;
  return typeof field === 'string' && (FIELDS as readonly string[]).includes(field) ? [{ name: field, errors: [(err as ApiError).message] }] : [];
}

export function PersonCreateDialog({ realmId, onClose }: { realmId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const create = useCreatePerson(realmId);
  const blank = (v: string | undefined) => (v ? v : undefined);

  const onFinish = (v: Values) =>
    create.mutate(
      { username: v.username, email: blank(v.email), phone: blank(v.phone), country: blank(v.country), password: blank(v.password) },
      {
        onSuccess: () => {
          showInfo((say) => say('people.person.created'));
          onClose();
        },
        onError: (err) => form.setFields(fieldError(err) as never),
      },
    );

  return (
    <Modal
      open
      title={t('people.person.add_title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={create.isPending}
      destroyOnHidden
      data-testid="person-create-dialog"
    >
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false} preserve={false}>
        <Form.Item name="username" htmlFor="person-new-username" label={t('people.person.username')} rules={rulesFor(shape.username, t)}>
          <Input id="person-new-username" maxLength={24} autoComplete="off" dir="ltr" />
        </Form.Item>
        <Form.Item name="email" htmlFor="person-new-email" label={t('people.person.email')} rules={rulesFor(shape.email, t)}>
          <Input id="person-new-email" type="email" maxLength={254} autoComplete="off" dir="ltr" />
        </Form.Item>
        <Form.Item label={t('people.person.phone')} htmlFor="person-new-phone">
          <Space.Compact block>
            <Form.Item name="country" noStyle rules={rulesFor(shape.country, t)}>
              <Input aria-label={t('people.person.country')} placeholder="86" maxLength={3} inputMode="numeric" className="person-form__country" dir="ltr" />
            </Form.Item>
            <Form.Item name="phone" noStyle rules={rulesFor(shape.phone, t)}>
              <Input id="person-new-phone" inputMode="tel" maxLength={32} autoComplete="off" dir="ltr" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="password"
          htmlFor="person-new-password"
          label={t('people.person.password')}
          extra={t('people.person.password_hint')}
          rules={rulesFor(shape.password, t)}
        >
          <Input.Password id="person-new-password" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
