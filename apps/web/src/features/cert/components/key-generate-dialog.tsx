/**
 * Generate a key (SPEC §3 "Key"): name, description, algorithm and strength, and whether the
 * private key is handed over now (it never is later). Fields are checked by the contracts'
 * schema the server uses.
 */
import Alert from 'antd/es/alert';
import Checkbox from 'antd/es/checkbox';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { KEY_ALGORITHMS, KEY_STRENGTHS, keyCreateBody, type KeyAlgorithm } from '@umbo/contracts/pki';
import { useTranslation } from 'react-i18next';
import { rulesFor } from '../../../lib/form-rules';
import { showSaveError } from './save-error';
import { useCreateKey, type KeyCreated } from '../api/key-create';

interface Values {
  name: string;
  description: string;
  algorithm: KeyAlgorithm;
  strength: string;
  returnPrivateKey: boolean;
}

const f = keyCreateBody.shape;
const STRENGTH_DEFAULT: Record<KeyAlgorithm, string> = { RSA: '2048', EC: 'P-256', Ed25519: 'Ed25519' };

export function KeyGenerateDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (k: KeyCreated) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const create = useCreateKey();
  const algorithm = Form.useWatch('algorithm', form) ?? 'EC';
  const wantsKey = Form.useWatch('returnPrivateKey', form) ?? false;

  const submit = (v: Values) =>
    create.mutate(v, {
      onSuccess: onCreated,
      onError: (err) => showSaveError(form, err, ['name', 'description', 'strength']),
    });

  return (
    <Modal
      open
      title={t('cert.key_generate_title')}
      onCancel={onClose}
      okText={t('cert.key_generate')}
      cancelText={t('cert.cancel')}
      onOk={() => form.submit()}
      confirmLoading={create.isPending}
      okButtonProps={{ ...({ 'data-testid': 'key-generate-submit' } as object) }}
      destroyOnHidden
      data-testid="key-generate-dialog"
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ algorithm: 'EC', strength: 'P-256', returnPrivateKey: false, description: '' }}
        onFinish={submit}
      >
        <Form.Item name="name" label={t('cert.key_name')} htmlFor="key-name" extra={t('cert.key_name_hint')} rules={rulesFor(f.name, t)}>
          <Input id="key-name" dir="ltr" maxLength={20} autoComplete="off" spellCheck={false} />
        </Form.Item>
        <Form.Item name="description" label={t('cert.description')} htmlFor="key-description" rules={rulesFor(f.description, t)}>
          <Input id="key-description" dir="auto" maxLength={50} showCount />
        </Form.Item>
        <Form.Item name="algorithm" label={t('cert.key_algorithm_label')} htmlFor="key-algorithm">
          <Select
            id="key-algorithm"
            options={KEY_ALGORITHMS.map((a) => ({ value: a, label: a }))}
            onChange={(a: KeyAlgorithm) => form.setFieldValue('strength', STRENGTH_DEFAULT[a])}
            data-testid="key-algorithm"
          />
        </Form.Item>
        <Form.Item name="strength" label={t('cert.key_strength')} htmlFor="key-strength">
          <Select id="key-strength" options={KEY_STRENGTHS[algorithm].map((s) => ({ value: s, label: s }))} data-testid="key-strength" />
        </Form.Item>
        <Form.Item name="returnPrivateKey" valuePropName="checked" extra={t('cert.key_return_private_hint')}>
          <Checkbox id="key-return-private" data-testid="key-return-private">
            {t('cert.key_return_private')}
          </Checkbox>
        </Form.Item>
        {wantsKey && <Alert type="warning" showIcon title={t('cert.key_private_once')} />}
      </Form>
    </Modal>
  );
}
