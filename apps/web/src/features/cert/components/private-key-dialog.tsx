/**
 * A generated key's private key, shown this once (issue 13: "downloadable once, at generation,
 * when the user asks for it"): the server never answers it again. The dialog closes only
 * through its button, so that a stray click beside it does not lose the key.
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { useTranslation } from 'react-i18next';
import { CopyBlock } from '../../../components/copy-block';
import { fileBase, saveText } from './save-file';

export function PrivateKeyDialog({ name, keyPem, onClose }: { name: string; keyPem: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('cert.key_private_title', { name })}
      closable={false}
      mask={{ closable: false }}
      keyboard={false}
      destroyOnHidden
      width={640}
      footer={
        <div className="cert-actions">
          <Button icon={<DownloadOutlined />} onClick={() => saveText(`${fileBase(name, 'key')}.key.pem`, keyPem)} data-testid="private-key-download">
            {t('cert.key_private_download')}
          </Button>
          <Button type="primary" onClick={onClose} data-testid="private-key-done">
            {t('cert.key_private_done')}
          </Button>
        </div>
      }
      data-testid="private-key-dialog"
    >
      <Alert type="warning" showIcon title={t('cert.key_private_once')} className="cert-alert" />
      <CopyBlock text={keyPem} label={t('cert.key_private_title', { name })} multiline testId="private-key" />
    </Modal>
  );
}
