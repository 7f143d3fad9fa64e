/** A new password and its confirmation (SPEC §5: at least 6; the two must match), checked by the server's schema. */
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { serviceCreateBody } from '@umbo/contracts/service-accounts';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';

export function ServicePasswordFields({ idPrefix }: { idPrefix: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item
        name="password"
        htmlFor={`${idPrefix}-password`}
        label={t('people.service.password_label')}
        rules={rulesFor(serviceCreateBody.shape.password, t)}
      >
        <Input.Password id={`${idPrefix}-password`} autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        htmlFor={`${idPrefix}-confirm`}
        label={t('people.service.password_confirm')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('validation.required') },
          ({ getFieldValue }) => ({
            validator: (_, value: string) =>
              !value || value === getFieldValue('password') ? Promise.resolve() : Promise.reject(new Error(t('validation.password_mismatch'))),
          }),
        ]}
      >
        <Input.Password id={`${idPrefix}-confirm`} autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
