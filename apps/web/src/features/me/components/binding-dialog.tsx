/**
 * Binding a phone or an email (SPEC §3): the password proves it is you, a code goes to the NEW
 * address, and the code entered here binds it. Unbinding asks for the password only.
 */
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Space from 'antd/es/space';
import { bindBody, bindCodeBody, unbindBody } from '@umbo/contracts/account';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { fieldError } from '../../../lib/api-error';
import { rulesFor } from '../../../lib/form-rules';
import { useBindAddress, useUnbindAddress } from '../api/bind-address';
import { useSendBindingCode, type BindingChannel } from '../api/send-binding-code';
import { reportError } from '../lib/report-error';

// The server's rules for the fields (contracts/account.ts); optional there where the channel decides.
const RULES = {
  email: bindCodeBody.shape.email.unwrap(),
  mobile: bindCodeBody.shape.mobile.unwrap(),
  country: bindCodeBody.shape.country,
  password: bindCodeBody.shape.password,
  code: bindBody.shape.code,
};

interface Values {
  target: string;
  country?: string;
  password: string;
  code: string;
}

function targetOf(channel: BindingChannel, v: Pick<Values, 'target' | 'country'>) {
  return channel === 'email' ? { email: v.target.trim() } : { mobile: v.target.trim(), country: v.country?.trim() || undefined };
}

/** SPEC §5: a mainland number (+86) is 11 digits, 1 then 3-9; others follow the server's rule. */
const CN_MOBILE = /^1[3-9]\d{9}$/;
const SERVER_FIELD: Record<string, keyof Values> = { email: 'target', mobile: 'target', country: 'country', password: 'password', code: 'code' };

export function BindingDialog({ channel, current, onClose }: { channel: BindingChannel; current: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [serialNo, setSerialNo] = useState<string>();
  const sendCode = useSendBindingCode();
  const bind = useBindAddress();
  // A parameter error naming a field (errData {field, reason}) is shown on that field.
  const onError = (err: unknown) => {
    const named = fieldError(err);
    const field = named && SERVER_FIELD[named.field];
    if (!named || !field) return reportError(err);
    const reason = named.reason === 'same' ? t('account.address_same') : named.reason.includes('.') ? t(named.reason as never) : (err as Error).message;
    form.setFields([{ name: field, errors: [reason] }]);
  };
  const send = async () => {
    // validateFields rejects when a field is wrong; the form already shows why.
    const v = await form.validateFields(['target', 'country', 'password']).catch(() => undefined);
    if (!v) return;
    if (v.target.trim() === current) return form.setFields([{ name: 'target', errors: [t('account.address_same')] }]);
    sendCode.mutate(
      { channel, ...targetOf(channel, v), password: v.password },
      {
        onSuccess: (r) => {
          setSerialNo(r.serialNo);
          showInfo((say) => say('account.code_sent', { target: v.target.trim() }));
        },
        onError,
      },
    );
  };
  const onFinish = (v: Values) => {
    if (!serialNo) return void send();
    bind.mutate(
      { channel, ...targetOf(channel, v), serialNo, code: v.code.trim() },
      { onSuccess: () => (showInfo((say) => say('account.saved')), onClose()), onError },
    );
  };
  return (
    <Modal
      open
      title={channel === 'email' ? t(current ? 'account.change_email' : 'account.bind_email') : t(current ? 'account.change_phone' : 'account.bind_phone')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={bind.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={onFinish}
        // A code belongs to the address it was sent to: a changed address needs a new one.
        onValuesChange={(changed: Partial<Values>) => ('target' in changed || 'country' in changed) && setSerialNo(undefined)}
        requiredMark={false}
      >
        {channel === 'email' ? (
          <Form.Item name="target" label={t('security.email')} rules={rulesFor(RULES.email, t)} htmlFor="bind-target">
            <Input id="bind-target" autoComplete="email" />
          </Form.Item>
        ) : (
          <Form.Item label={t('security.phone')} required htmlFor="bind-target">
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="country" noStyle initialValue="+86" rules={rulesFor(RULES.country, t)}>
                <Input id="bind-country" maxLength={4} style={{ width: 80 }} aria-label={t('flows.country')} />
              </Form.Item>
              <Form.Item
                name="target"
                noStyle
                dependencies={['country']}
                rules={[
                  ...rulesFor(RULES.mobile, t),
                  ({ getFieldValue }) => ({
                    validator: (_, value: string | undefined) =>
                      !value || !['+86', '86', ''].includes(String(getFieldValue('country') ?? '').trim()) || CN_MOBILE.test(value.trim())
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('validation.mobile'))),
                  }),
                ]}
              >
                <Input id="bind-target" autoComplete="tel" />
              </Form.Item>
            </Space.Compact>
          </Form.Item>
        )}
        <Form.Item name="password" label={t('security.password')} rules={rulesFor(RULES.password, t)} htmlFor="bind-password">
          <Input.Password id="bind-password" autoComplete="current-password" />
        </Form.Item>
        <Form.Item label={t('security.verify_code')} required htmlFor="bind-code">
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" noStyle rules={serialNo ? rulesFor(RULES.code, t) : []}>
              <Input id="bind-code" maxLength={16} disabled={!serialNo} />
            </Form.Item>
            <Button onClick={() => void send()} loading={sendCode.isPending} data-testid="bind-send-code">
              {t('account.send_code')}
            </Button>
          </Space.Compact>
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function UnbindDialog({ channel, onClose }: { channel: BindingChannel; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const unbind = useUnbindAddress();
  const onFinish = ({ password }: { password: string }) =>
    unbind.mutate({ channel, password }, { onSuccess: () => (showInfo((say) => say('account.saved')), onClose()) });
  return (
    <Modal
      open
      title={t('account.unbind')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ danger: true }}
      confirmLoading={unbind.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={onFinish} requiredMark={false}>
        <Form.Item name="password" label={t('security.password')} rules={rulesFor(unbindBody.shape.password, t)} htmlFor="unbind-password">
          <Input.Password id="unbind-password" autoComplete="current-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
