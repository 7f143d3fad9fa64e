/** Avatar upload (SPEC §5): a png or jpeg of at most 4 KB, sent as a data URL. */
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import Avatar from 'antd/es/avatar';
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { showError, showInfo } from '../../../lib/feedback';
import { useUploadAvatar } from '../api/upload-avatar';
import { reportError } from '../lib/report-error';

const MAX_BYTES = 4096;

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export function AvatarUpload({ src, name }: { src: string; name: string }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const upload = useUploadAvatar();
  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    if (!['image/png', 'image/jpeg'].includes(file.type) || file.size > MAX_BYTES) {
      showError((say) => say('account.avatar_format'));
      return;
    }
    // A file that cannot be read (removed or locked meanwhile) is reported, not left as an unhandled rejection.
    const image = await readDataUrl(file).catch((err: unknown) => void reportError(err));
    if (image) upload.mutate(image, { onSuccess: () => showInfo((say) => say('account.saved')) });
  };
  return (
    <Space wrap>
      <Avatar size={64} src={src || undefined} data-testid="account-avatar">
        {name.slice(0, 1).toUpperCase()}
      </Avatar>
      <input ref={input} type="file" accept="image/png,image/jpeg" hidden data-testid="avatar-file" onChange={(e) => void onFile(e.target.files?.[0])} />
      <Button icon={<UploadOutlined />} loading={upload.isPending} onClick={() => input.current?.click()}>
        {t('account.avatar_upload')}
      </Button>
      <span className="account__hint">{t('account.avatar_format')}</span>
    </Space>
  );
}
