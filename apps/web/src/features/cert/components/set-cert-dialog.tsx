/**
 * Set cert / complete (SPEC §2 "set cert"): attach a certificate issued elsewhere to one of the
 * caller's managed keys. The chain is verified by the server unless "allow unknown CA" is on
 * (1110 CHAIN_UNVERIFIED); a certificate for another key is 1111.
 */
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { showSaveError } from './save-error';
import { useKeys } from '../api/get-keys';
import { useSetCert } from '../api/key-set-cert';
import { PemInput } from './pem-input';

interface Values {
  keyId: string;
  certPem: string;
  chainPem: string;
  allowUnknownCa: boolean;
  desc: string;
}

export function SetCertDialog({ keyId, onClose }: { keyId?: string | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const keys = useKeys();
  const run = useSetCert();

  const submit = ({ keyId: id, ...body }: Values) =>
    run.mutate(
      { keyId: id, body: { ...body, chainPem: body.chainPem ?? '', desc: body.desc ?? '' } },
      {
        onSuccess: () => {
          const name = keys.data?.items.find((k) => k.id === id)?.name ?? id;
          showInfo(() => t('cert.set_cert_done', { name }));
          onClose();
        },
        onError: (err) => showSaveError(form, err, ['certPem', 'chainPem']),
      },
    );

  return (
    <Modal
      open
      title={t('cert.set_cert_title')}
      onCancel={onClose}
      okText={t('cert.save')}
      cancelText={t('cert.cancel')}
      onOk={() => form.submit()}
      confirmLoading={run.isPending}
      width={680}
      destroyOnHidden
      data-testid="set-cert-dialog"
    >
      <p>{t('cert.set_cert_intro')}</p>
      <Form<Values> form={form} layout="vertical" initialValues={{ keyId, allowUnknownCa: false, chainPem: '', desc: '' }} onFinish={submit}>
        <Form.Item name="keyId" label={t('cert.key')} htmlFor="set-cert-key" rules={[{ required: true, message: t('validation.required') }]}>
          <Select
            id="set-cert-key"
            loading={keys.isPending}
            options={(keys.data?.items ?? []).map((k) => ({ value: k.id, label: `${k.name} (${k.algorithm} ${k.strength})` }))}
          />
        </Form.Item>
        <Form.Item
          name="certPem"
          label={t('cert.cert_input')}
          htmlFor="set-cert-pem"
          rules={[{ validator: (_r, v: string | undefined) => (v?.trim() ? Promise.resolve() : Promise.reject(new Error(t('errors.cert_empty')))) }]}
          required
        >
          <PemInput id="set-cert-pem" placeholder="-----BEGIN CERTIFICATE-----" testId="set-cert-pem" />
        </Form.Item>
        <Form.Item name="chainPem" label={t('cert.chain_pem')} htmlFor="set-cert-chain">
          <PemInput id="set-cert-chain" rows={4} testId="set-cert-chain" />
        </Form.Item>
        <Form.Item name="allowUnknownCa" valuePropName="checked" extra={t('cert.allow_unknown_ca_hint')}>
          <Checkbox id="set-cert-unknown">{t('cert.allow_unknown_ca')}</Checkbox>
        </Form.Item>
        <Form.Item name="desc" label={t('cert.desc')} htmlFor="set-cert-desc">
          <Input id="set-cert-desc" dir="auto" maxLength={200} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
