/**
 * View certificate / view CSR (tools): a PEM pasted or uploaded, every field decoded by the
 * server, shown group by group. Labels the server keys are shown in the user's language
 * (cert.decoded_<key>); extensions and attributes keep the server's name with its OID.
 */
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Form from 'antd/es/form';
import { useState } from 'react';
import type { DecodedKey } from '@umbo/contracts/pki';
import { useTranslation } from 'react-i18next';
import { useDecode } from '../api/tools-view';
import { looksLikePem, PemInput } from './pem-input';

export function DecodePanel({ kind }: { kind: 'certificate' | 'csr' }) {
  const { t } = useTranslation();
  const decode = useDecode(kind);
  const [pem, setPem] = useState('');
  const [problem, setProblem] = useState<string>();
  const id = `decode-${kind}`;
  const label = (key: DecodedKey | undefined, fallback: string) => (key ? t(`cert.decoded_${key}`) : fallback);

  const run = () => {
    const text = pem.trim();
    // SPEC §8: "The certificate content is empty" / "The csr content is empty"
    if (!text) return setProblem(t(kind === 'csr' ? 'errors.csr_empty' : 'errors.cert_empty'));
    if (!looksLikePem(text)) return setProblem(t('errors.pem_invalid'));
    setProblem(undefined);
    decode.mutate(text);
  };

  return (
    <div data-testid={`${id}-panel`}>
      <p>{t(kind === 'csr' ? 'cert.view_csr_intro' : 'cert.view_cert_intro')}</p>
      <Form layout="vertical" onFinish={run}>
        <Form.Item
          label={t(kind === 'csr' ? 'cert.csr_pem' : 'cert.cert_input')}
          htmlFor={id}
          validateStatus={problem ? 'error' : undefined}
          help={problem}
          required
        >
          <PemInput
            id={id}
            rows={8}
            value={pem}
            onChange={setPem}
            placeholder={kind === 'csr' ? '-----BEGIN CERTIFICATE REQUEST-----' : '-----BEGIN CERTIFICATE-----'}
            testId={`${id}-pem`}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={decode.isPending} data-testid={`${id}-run`}>
          {t('cert.decode')}
        </Button>
      </Form>
      {decode.data && (
        <div className="cert-decoded" data-testid={`${id}-result`}>
          {decode.data.groups.map((g, i) => (
            <Descriptions
              key={i}
              title={<span dir="auto">{label(g.key, g.title)}</span>}
              column={1}
              size="small"
              bordered
              items={g.fields.map((field, j) => ({
                key: j,
                label: <span dir="auto">{label(field.key, field.label)}</span>,
                children: (
                  <span dir="ltr" className="cert-code">
                    {field.value}
                  </span>
                ),
              }))}
            />
          ))}
        </div>
      )}
    </div>
  );
}
