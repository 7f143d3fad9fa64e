/** The user code as typed: upper case, dash after four letters, checked against RFC 8628 §6.1's alphabet. */
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { normaliseUserCode } from '@umbo/contracts/device';
import { useTranslation } from 'react-i18next';
import { asTyped } from '../lib/typed-code';
import { DeviceError } from './device-error';

export function CodeForm(props: { initial: string; loading: boolean; error: unknown; onSubmit: (code: string) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ code: string }>();
  return (
    <>
      <p className="device__intro">{t('device.intro')}</p>
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{ code: asTyped(props.initial) }}
        onFinish={(v) => {
          const code = normaliseUserCode(v.code);
          if (code) props.onSubmit(code);
        }}
        className="device__form"
      >
        <Form.Item
          htmlFor="device-user-code"
          name="code"
          label={t('device.code_label')}
          normalize={(v: string) => asTyped(v)}
          rules={[{ validator: (_, v: string) => (normaliseUserCode(v ?? '') ? Promise.resolve() : Promise.reject(new Error(t('device.code_rule')))) }]}
          validateTrigger="onSubmit"
        >
          <Input
            id="device-user-code"
            className="device__input"
            size="large"
            placeholder="XXXX-XXXX"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            dir="ltr"
            data-testid="device-code-input"
          />
        </Form.Item>
        <DeviceError error={props.error} />
        <Button type="primary" htmlType="submit" size="large" loading={props.loading} data-testid="device-continue">
          {t('device.continue')}
        </Button>
      </Form>
    </>
  );
}
