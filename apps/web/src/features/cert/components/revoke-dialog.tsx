/** Revoke with an RFC 5280 §5.3.1 reason (certificates and account CAs alike), after a warning. */
import Alert from 'antd/es/alert';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Select from 'antd/es/select';
import { REVOKE_REASONS, type RevokeReason } from '@umbo/contracts/pki';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface RevokeDialogProps {
  title: string;
  warning: string;
  onRevoke: (reason: RevokeReason) => Promise<unknown>;
  onClose: () => void;
}

export function RevokeDialog({ title, warning, onRevoke, onClose }: RevokeDialogProps) {
  const { t } = useTranslation();
  const [reason, setReason] = useState<RevokeReason>('unspecified');
  const [busy, setBusy] = useState(false);
  const submit = () => {
    setBusy(true);
    // a refusal is said by the API client's policy; the dialog stays open to try again
    onRevoke(reason).then(onClose, () => setBusy(false));
  };
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      onOk={submit}
      okText={t('cert.revoke')}
      cancelText={t('cert.cancel')}
      okButtonProps={{ danger: true, ...({ 'data-testid': 'revoke-submit' } as object) }}
      confirmLoading={busy}
      destroyOnHidden
      data-testid="revoke-dialog"
    >
      <Alert type="warning" showIcon title={warning} className="cert-alert" />
      <Form layout="vertical">
        <Form.Item label={t('cert.revoke_reason')} htmlFor="revoke-reason">
          <Select<RevokeReason>
            id="revoke-reason"
            value={reason}
            onChange={setReason}
            options={REVOKE_REASONS.map((r) => ({ value: r, label: t(`cert.reason_${r}`) }))}
            data-testid="revoke-reason"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
