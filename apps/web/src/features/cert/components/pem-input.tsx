/**
 * A PEM field: paste the text, or upload a file whose text lands in the box (SPEC §5 "uploads
 * are PEM only": a file that is not PEM text is refused here, before it is sent). Used as an
 * antd form control (value / onChange).
 */
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import { PKI_LIMITS } from '@umbo/contracts/pki';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { showError } from '../../../lib/feedback';

export interface PemInputProps {
  id: string;
  value?: string;
  onChange?: (value: string) => void;
  rows?: number;
  placeholder?: string;
  testId?: string;
}

export const looksLikePem = (text: string) => /-----BEGIN [A-Z0-9 ]+-----/.test(text);

export function PemInput({ id, value, onChange, rows = 6, placeholder, testId }: PemInputProps) {
  const { t } = useTranslation();
  const file = useRef<HTMLInputElement>(null);

  const read = async (chosen: File) => {
    if (chosen.size > PKI_LIMITS.pemMaxBytes) return showError(() => t('cert.file_too_large', { max: PKI_LIMITS.pemMaxBytes / 1024 }));
    const text = await chosen.text();
    if (!looksLikePem(text)) return showError(() => t('cert.upload_pem_only'));
    onChange?.(text.trim());
  };

  return (
    <div className="pem-input">
      <Input.TextArea
        id={id}
        value={value}
        onChange={(e) => onChange?.(e.target.value)}
        rows={rows}
        placeholder={placeholder}
        dir="ltr"
        spellCheck={false}
        autoComplete="off"
        className="pem-input__text"
        data-testid={testId}
      />
      <input
        ref={file}
        type="file"
        accept=".pem,.csr,.crt,.cer,.key,.txt,application/x-pem-file,text/plain"
        className="cert-file"
        aria-hidden
        tabIndex={-1}
        data-testid={testId ? `${testId}-file` : undefined}
        onChange={(e) => {
          const chosen = e.target.files?.[0];
          if (chosen) void read(chosen);
          e.target.value = '';
        }}
      />
      <Button size="small" icon={<UploadOutlined />} onClick={() => file.current?.click()} className="pem-input__upload">
        {t('cert.upload_file')}
      </Button>
    </div>
  );
}
