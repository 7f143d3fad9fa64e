/**
 * A client secret, shown this once (issue 12: "shown once at creation and regeneration"): the
 * server keeps only a keyed hash of it and never answers it again. The dialog closes only
 * through its button, so that a stray click beside it does not lose the secret.
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { CopyBlock } from '../../../components/copy-block';

export interface ShownSecret {
  clientId: string;
  clientSecret: string;
}

export function SecretDialog({ secret, onClose }: { secret: ShownSecret; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('clients.secret_title')}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      width={600}
      footer={
        <Button type="primary" onClick={onClose} data-testid="secret-done">
          {t('clients.secret_done')}
        </Button>
      }
      data-testid="secret-dialog"
    >
      <Alert className="client-secret__alert" type="warning" showIcon title={t('clients.secret_once')} />
      <Descriptions
        column={1}
        size="small"
        layout="vertical"
        items={[
          { key: 'id', label: t('clients.client_id'), children: <CopyBlock text={secret.clientId} label={t('clients.client_id')} testId="secret-client-id" /> },
          {
            key: 'secret',
            label: t('clients.secret_label'),
            children: <CopyBlock text={secret.clientSecret} label={t('clients.secret_label')} testId="secret-value" />,
          },
        ]}
      />
    </Modal>
  );
}
