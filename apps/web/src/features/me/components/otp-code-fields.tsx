/** The first and second verify codes: two consecutive six-digit one-time passwords. */
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { otpEnableBody } from '@umbo/contracts/account';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';

export interface OtpCodes {
  firstCode: string;
  secondCode: string;
}

export function OtpCodeFields({ pending, submitLabel, onFinish }: { pending: boolean; submitLabel: string; onFinish: (codes: OtpCodes) => void }) {
  const { t } = useTranslation();
  const rules = rulesFor(otpEnableBody.shape.firstCode, t);
  return (
    <Form<OtpCodes> layout="vertical" onFinish={onFinish} requiredMark={false}>
      <p>{t('account.otp_consecutive_hint')}</p>
      <Form.Item htmlFor="otp-first-code" name="firstCode" label={t('account.otp_first_code')} rules={rules}>
        <Input id="otp-first-code" inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
      </Form.Item>
      <Form.Item htmlFor="otp-second-code" name="secondCode" label={t('account.otp_second_code')} rules={rules}>
        <Input id="otp-second-code" inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={pending} data-testid="otp-codes-submit">
        {submitLabel}
      </Button>
    </Form>
  );
}
