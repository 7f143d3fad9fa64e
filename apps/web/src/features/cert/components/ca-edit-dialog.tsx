/** Edit CA (SPEC §2): description 4–50, default and maximum issuance period in days, neither under one month; the default not above the maximum. */
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Modal from 'antd/es/modal';
import { caEditBody, PKI_LIMITS, type CaView } from '@umbo/contracts/pki';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { rulesFor } from '../../../lib/form-rules';
import { showSaveError } from './save-error';
import { useEditCa } from '../api/ca-edit';

interface Values {
  description: string;
  defaultIssueValidPeriod: number;
  maxIssueValidPeriod: number;
}

const f = caEditBody.shape;

export function CaEditDialog({ ca, onClose }: { ca: CaView; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const edit = useEditCa();
  const submit = (v: Values) =>
    edit.mutate(v, {
      onSuccess: () => {
        showInfo(() => t('cert.ca_saved'));
        onClose();
      },
      onError: (err) => showSaveError(form, err, ['description', 'defaultIssueValidPeriod', 'maxIssueValidPeriod']),
    });
  const days = { min: PKI_LIMITS.minPeriodDays, max: PKI_LIMITS.maxPeriodDays, precision: 0, className: 'cert-toolbar__days' };
  return (
    <Modal
      open
      title={t('cert.ca_edit_title')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('cert.save')}
      cancelText={t('cert.cancel')}
      confirmLoading={edit.isPending}
      okButtonProps={{ ...({ 'data-testid': 'ca-edit-save' } as object) }}
      destroyOnHidden
      data-testid="ca-edit-dialog"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ description: ca.description, defaultIssueValidPeriod: ca.defaultIssueValidPeriod, maxIssueValidPeriod: ca.maxIssueValidPeriod }}
        onFinish={submit}
      >
        <Form.Item name="description" label={t('cert.ca_description')} htmlFor="ca-description" rules={rulesFor(f.description, t)}>
          <Input id="ca-description" dir="auto" maxLength={50} showCount />
        </Form.Item>
        <Form.Item
          name="defaultIssueValidPeriod"
          label={t('cert.ca_default_period')}
          htmlFor="ca-default-period"
          extra={t('cert.ca_period_hint')}
          dependencies={['maxIssueValidPeriod']}
          rules={[
            ...rulesFor(f.defaultIssueValidPeriod, t),
            { required: true, message: t('validation.required') },
            ({ getFieldValue }) => ({
              validator: (_r, v: number | null) =>
                v == null || v <= Number(getFieldValue('maxIssueValidPeriod')) ? Promise.resolve() : Promise.reject(new Error(t('validation.period_order'))),
            }),
          ]}
        >
          <InputNumber id="ca-default-period" {...days} />
        </Form.Item>
        <Form.Item
          name="maxIssueValidPeriod"
          label={t('cert.ca_max_period')}
          htmlFor="ca-max-period"
          extra={t('cert.ca_period_hint')}
          rules={[...rulesFor(f.maxIssueValidPeriod, t), { required: true, message: t('validation.required') }]}
        >
          <InputNumber id="ca-max-period" {...days} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
