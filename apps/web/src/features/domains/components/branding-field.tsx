/**
 * Logo / icon upload (SPEC §5: PNG or JPEG, at most 4 KB / 16 KB). The file is checked here
 * first (size and first bytes), so a too-large file is said at once, next to the field; the
 * server checks the bytes again.
 */
import Button from 'antd/es/button';
import Space from 'antd/es/space';
import Typography from 'antd/es/typography';
import { LIMITS } from '@umbo/contracts/checks';
import type { BrandingKind } from '@umbo/contracts/realms';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useRemoveImage, useUploadImage } from '../api/realm-mutations';

const MAX: Record<BrandingKind, number> = { logo: LIMITS.logoBytes, icon: LIMITS.iconBytes };

async function isPngOrJpeg(file: File): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => head[i] === b);
  const jpeg = head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff;
  return png || jpeg;
}

const readDataUrl = (file: File) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });

export function BrandingField({ realmId, kind, url, canEdit }: { realmId: string; kind: BrandingKind; url: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const upload = useUploadImage();
  const remove = useRemoveImage();
  const id = `branding-${kind}`;

  async function chosen(file: File | undefined) {
    if (input.current) input.current.value = '';
    if (!file) return;
    setProblem(undefined);
    if (file.size > MAX[kind]) return setProblem(t('domains.image_too_large', { size: file.size, max: MAX[kind] }));
    if (!(await isPngOrJpeg(file))) return setProblem(t('domains.image_wrong_type'));
    // The server believes the bytes, not the label: an unusual label is sent as plain bytes.
    const dataUrl = (await readDataUrl(file)).replace(/^data:(?!image\/(?:png|jpe?g);)[^;,]*;/, 'data:application/octet-stream;');
    upload.mutate({ realmId, kind, dataUrl }, { onSuccess: () => showInfo(() => t('domains.image_uploaded')), onError: (e) => setProblem(e.message) });
  }

  return (
    <div data-testid={id}>
      <Typography.Text id={`${id}-label`} strong>
        {t(kind === 'logo' ? 'domains.logo' : 'domains.icon')}
      </Typography.Text>
      <Space wrap align="center" style={{ display: 'flex', marginTop: 8 }}>
        {url ? <img src={url} alt={t(kind === 'logo' ? 'domains.logo' : 'domains.icon')} style={{ maxHeight: 48, maxWidth: 160 }} /> : null}
        {canEdit && (
          <>
            <input
              ref={input}
              id={id}
              type="file"
              accept="image/png,image/jpeg"
              aria-labelledby={`${id}-label`}
              style={{ display: 'none' }}
              onChange={(e) => void chosen(e.target.files?.[0])}
            />
            <Button onClick={() => input.current?.click()} loading={upload.isPending} data-testid={`${id}-upload`}>
              {t('domains.upload')}
            </Button>
            {url && (
              <Button onClick={() => remove.mutate({ realmId, kind })} loading={remove.isPending}>
                {t('domains.remove_image')}
              </Button>
            )}
          </>
        )}
      </Space>
      {problem && (
        <Typography.Text type="danger" role="alert" data-testid={`${id}-error`} style={{ display: 'block', marginTop: 4 }}>
          {problem}
        </Typography.Text>
      )}
    </div>
  );
}
