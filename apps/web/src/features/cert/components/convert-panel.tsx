/**
 * Convert format (tools): PEM ↔ DER, certificate + key → PKCS#12 (password), chain → PKCS#7,
 * and back. PEM is pasted or uploaded as text; a binary input is uploaded and sent as base64.
 * The result is downloaded under the server's file name (and, when it is text, shown too).
 */
import DownloadOutlined from '@ant-design/icons/DownloadOutlined';
import UploadOutlined from '@ant-design/icons/UploadOutlined';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { PKI_LIMITS, type ConvertFormat } from '@umbo/contracts/pki';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyBlock } from '../../../components/copy-block';
import { showError, showInfo } from '../../../lib/feedback';
import { useConvert, type ConvertAnswer } from '../api/tools-convert';
import { looksLikePem, PemInput } from './pem-input';
import { base64ToBytes, bytesToBase64, saveBlob } from './save-file';

/** The conversions offered: PEM to each binary form and each back to PEM. */
const TARGETS: Record<ConvertFormat, readonly ConvertFormat[]> = { pem: ['der', 'pkcs12', 'pkcs7'], der: ['pem'], pkcs12: ['pem'], pkcs7: ['pem'] };
const FORMATS: readonly ConvertFormat[] = ['pem', 'der', 'pkcs12', 'pkcs7'];

interface Values {
  from: ConvertFormat;
  to: ConvertFormat;
  pem?: string;
  keyPem?: string;
  password?: string;
}

export function ConvertPanel() {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const convert = useConvert();
  const fileInput = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; size: number; base64: string }>();
  const [result, setResult] = useState<ConvertAnswer>();
  const from = Form.useWatch('from', form) ?? 'pem';
  const to = Form.useWatch('to', form) ?? 'der';
  const needsPassword = to === 'pkcs12' || from === 'pkcs12';

  const choose = async (chosen: File) => {
    if (chosen.size > (PKI_LIMITS.toolInputMaxBytes * 3) / 4)
      return showError(() => t('cert.file_too_large', { max: Math.floor((PKI_LIMITS.toolInputMaxBytes * 3) / 4 / 1024) }));
    setFile({ name: chosen.name, size: chosen.size, base64: bytesToBase64(new Uint8Array(await chosen.arrayBuffer())) });
  };

  const submit = (v: Values) => {
    const input = v.from === 'pem' ? (v.pem ?? '').trim() : file?.base64;
    if (!input) return showError(() => (v.from === 'pem' ? t('errors.cert_empty') : t('cert.convert_file_needed')));
    setResult(undefined);
    convert.mutate(
      { from: v.from, to: v.to, input, ...(v.to === 'pkcs12' ? { keyPem: v.keyPem?.trim() } : {}), ...(needsPassword ? { password: v.password } : {}) },
      {
        onSuccess: (answer) => {
          const blob =
            answer.base64 !== undefined
              ? new Blob([base64ToBytes(answer.base64)], { type: answer.mediaType })
              : new Blob([answer.text ?? ''], { type: answer.mediaType });
          saveBlob(answer.fileName, blob);
          setResult(answer);
          showInfo(() => t('cert.downloaded', { name: answer.fileName }));
        },
      },
    );
  };

  return (
    <div data-testid="convert-panel">
      <p>{t('cert.convert_intro')}</p>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ from: 'pem', to: 'der' }}
        onFinish={submit}
        onValuesChange={(changed: Partial<Values>) => {
          if (changed.from) {
            form.setFieldValue('to', TARGETS[changed.from][0]);
            setFile(undefined);
          }
          setResult(undefined);
        }}
      >
        <div className="cert-toolbar">
          <Form.Item name="from" label={t('cert.convert_from')} htmlFor="convert-from">
            <Select
              id="convert-from"
              className="cert-toolbar__select"
              options={FORMATS.map((x) => ({ value: x, label: t(`cert.format_${x}`) }))}
              data-testid="convert-from"
            />
          </Form.Item>
          <Form.Item name="to" label={t('cert.convert_to')} htmlFor="convert-to">
            <Select
              id="convert-to"
              className="cert-toolbar__select"
              options={TARGETS[from].map((x) => ({ value: x, label: t(`cert.format_${x}`) }))}
              data-testid="convert-to"
            />
          </Form.Item>
        </div>
        {from === 'pem' ? (
          <Form.Item name="pem" label={t('cert.convert_input_pem')} htmlFor="convert-pem" required>
            <PemInput id="convert-pem" rows={8} placeholder="-----BEGIN CERTIFICATE-----" testId="convert-pem" />
          </Form.Item>
        ) : (
          <Form.Item label={t('cert.convert_input_file')} required>
            <input
              ref={fileInput}
              type="file"
              className="cert-file"
              aria-hidden
              tabIndex={-1}
              data-testid="convert-file"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                if (chosen) void choose(chosen);
                e.target.value = '';
              }}
            />
            <div className="cert-actions">
              <Button icon={<UploadOutlined />} onClick={() => fileInput.current?.click()}>
                {t('cert.upload_file')}
              </Button>
              {file && <span dir="auto">{t('cert.convert_file_chosen', { name: file.name, size: file.size })}</span>}
            </div>
          </Form.Item>
        )}
        {to === 'pkcs12' && (
          <Form.Item
            name="keyPem"
            label={t('cert.convert_key')}
            htmlFor="convert-key"
            rules={[
              { validator: (_r, v: string | undefined) => (v && looksLikePem(v) ? Promise.resolve() : Promise.reject(new Error(t('errors.pem_invalid')))) },
            ]}
            required
          >
            <PemInput id="convert-key" rows={6} placeholder="-----BEGIN PRIVATE KEY-----" testId="convert-key" />
          </Form.Item>
        )}
        {needsPassword && (
          <Form.Item
            name="password"
            label={t('cert.convert_password')}
            htmlFor="convert-password"
            extra={t('cert.convert_password_hint')}
            rules={[
              { required: true, message: t('validation.required') },
              { min: PKI_LIMITS.pkcs12PasswordMin, message: t('validation.too_short', { min: PKI_LIMITS.pkcs12PasswordMin }) },
              { max: PKI_LIMITS.pkcs12PasswordMax, message: t('validation.too_long', { max: PKI_LIMITS.pkcs12PasswordMax }) },
            ]}
          >
            <Input.Password id="convert-password" autoComplete="new-password" data-testid="convert-password" />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" icon={<DownloadOutlined />} loading={convert.isPending} data-testid="convert-run">
          {t('cert.convert_run')}
        </Button>
      </Form>
      {result && (
        <div className="cert-section" data-testid="convert-result">
          <h3>{t('cert.convert_result')}</h3>
          <p dir="ltr" data-testid="convert-result-name">
            {result.fileName}
          </p>
          {result.text !== undefined && <CopyBlock text={result.text} label={t('cert.convert_result')} multiline testId="convert-result-text" />}
        </div>
      )}
    </div>
  );
}
