/**
 * Certificate issue (SPEC §2): from a PEM CSR (pasted or uploaded; PEM only; empty → "The csr
 * content is empty") or from a managed key; the common-name type and name, subject
 * alternative names (changing the type clears them, SPEC §4), validity within the CA's
 * maximum, and a description. The server checks all of it again (issue.ts).
 */
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Drawer from 'antd/es/drawer';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import Space from 'antd/es/space';
import { CN_TYPES, PKI_LIMITS, type CertIssueBody, type CertView, type CnType, type SanEntry, type SanType } from '@umbo/contracts/pki';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { showSaveError } from './save-error';
import { useIssueCert } from '../api/cert-issue';
import { useOwnCa } from '../api/get-ca';
import { useKeys } from '../api/get-keys';
import { cnProblem } from './name-rules';
import { looksLikePem, PemInput } from './pem-input';
import { SanList } from './san-list';

interface Values {
  type: 'device' | 'service';
  source: 'csr' | 'key';
  csrPem?: string;
  keyId?: string;
  cnType: CnType;
  cn: string;
  san?: SanEntry[];
  notBefore?: Dayjs | null;
  expireAt?: Dayjs | null;
  desc?: string;
}

const CSR_MARKER = '-----BEGIN CERTIFICATE REQUEST-----';

/** The hint names the PEM armour line: kept left to right inside a right-to-left sentence. */
function PemHint({ text, marker }: { text: string; marker: string }) {
  const [before, after] = text.split(marker);
  if (after === undefined) return <>{text}</>;
  return (
    <>
      {before}
      <bdi dir="ltr" className="cert-code">
        {marker}
      </bdi>
      {after}
    </>
  );
}

const SAN_DEFAULT: Record<CnType, SanType> = { deviceId: 'uri', dns: 'dns', ip: 'ip', email: 'email' };

function toBody(v: Values): CertIssueBody {
  return {
    type: v.type,
    ...(v.source === 'csr' ? { csrPem: (v.csrPem ?? '').trim() } : { keyId: v.keyId! }),
    cnType: v.cnType,
    cn: v.cn.trim(),
    san: (v.san ?? []).map((s) => ({ type: s.type, value: s.value.trim() })),
    ...(v.notBefore ? { notBeforeTs: v.notBefore.valueOf() } : {}),
    ...(v.expireAt ? { expireAtTs: v.expireAt.valueOf() } : {}),
    desc: v.desc ?? '',
  };
}

export function IssueDrawer({ keyId, onClose, onIssued }: { keyId?: string | undefined; onClose: () => void; onIssued: (c: CertView) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const issue = useIssueCert();
  const keys = useKeys();
  const { data: ca } = useOwnCa();
  const source = Form.useWatch('source', form) ?? (keyId ? 'key' : 'csr');
  const cnType = Form.useWatch('cnType', form) ?? 'deviceId';
  const [cleared, setCleared] = useState(false);

  const submit = (v: Values) =>
    issue.mutate(toBody(v), {
      onSuccess: (c) => {
        showInfo(() => t('cert.issued', { cn: c.cn }));
        onIssued(c);
      },
      onError: (err) => showSaveError(form, err, ['csrPem', 'keyId', 'cn', 'san', 'notBefore', 'expireAt', 'desc']),
    });

  const changeCnType = () => {
    // SPEC §4: changing the common name type clears all SAN entries
    if ((form.getFieldValue('san') as SanEntry[] | undefined)?.length) setCleared(true);
    form.setFieldValue('san', []);
    if (form.getFieldValue('cn')) void form.validateFields(['cn']);
  };

  return (
    <Drawer
      open
      onClose={onClose}
      title={t('cert.issue_title')}
      size="large"
      styles={{ wrapper: { width: 'min(720px, 100vw)' } }}
      destroyOnHidden
      data-testid="issue-drawer"
      footer={
        <Space>
          <Button type="primary" onClick={() => form.submit()} loading={issue.isPending} data-testid="issue-submit">
            {t('cert.issue')}
          </Button>
          <Button onClick={onClose}>{t('cert.cancel')}</Button>
        </Space>
      }
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ type: 'device', source: keyId ? 'key' : 'csr', keyId, cnType: 'deviceId', san: [], desc: '' }}
        onFinish={submit}
        scrollToFirstError
        data-testid="issue-form"
      >
        <Form.Item name="type" label={t('cert.cert_type')} extra={t('cert.cert_type_hint')}>
          <Radio.Group
            options={[
              { value: 'device', label: t('cert.type_device') },
              { value: 'service', label: t('cert.type_service') },
            ]}
          />
        </Form.Item>
        <Form.Item name="source" label={t('cert.source')}>
          <Radio.Group
            options={[
              { value: 'csr', label: <span data-testid="issue-source-csr">{t('cert.source_csr')}</span> },
              { value: 'key', label: <span data-testid="issue-source-key">{t('cert.source_key')}</span> },
            ]}
          />
        </Form.Item>
        {source === 'csr' ? (
          <Form.Item
            name="csrPem"
            label={t('cert.csr_pem')}
            htmlFor="issue-csr"
            extra={<PemHint text={t('cert.csr_hint')} marker={CSR_MARKER} />}
            required
            rules={[
              {
                validator: (_r, v: string | undefined) => {
                  if (!v?.trim()) return Promise.reject(new Error(t('errors.csr_empty')));
                  if (!looksLikePem(v) || v.length > PKI_LIMITS.pemMaxBytes) return Promise.reject(new Error(t('errors.pem_invalid')));
                  return Promise.resolve();
                },
              },
            ]}
          >
            <PemInput id="issue-csr" rows={8} placeholder="-----BEGIN CERTIFICATE REQUEST-----" testId="issue-csr" />
          </Form.Item>
        ) : (
          <Form.Item name="keyId" label={t('cert.key')} htmlFor="issue-key" rules={[{ required: true, message: t('cert.choose_key') }]}>
            <Select
              id="issue-key"
              loading={keys.isPending}
              options={(keys.data?.items ?? []).map((k) => ({
                value: k.id,
                label: `${k.name} (${k.algorithm === 'Ed25519' ? k.algorithm : `${k.algorithm} ${k.strength}`})`,
              }))}
              data-testid="issue-key"
            />
          </Form.Item>
        )}
        <Form.Item name="cnType" label={t('cert.cn_type')} htmlFor="issue-cn-type" extra={t('cert.cn_type_cleared')}>
          <Select
            id="issue-cn-type"
            onChange={changeCnType}
            options={CN_TYPES.map((c) => ({ value: c, label: t(`cert.cn_type_${c}`) }))}
            data-testid="issue-cn-type"
          />
        </Form.Item>
        <Form.Item
          name="cn"
          label={t('cert.cn')}
          htmlFor="issue-cn"
          dependencies={['cnType']}
          rules={[
            { required: true, whitespace: true, message: t('validation.required') },
            { max: PKI_LIMITS.cnMax, message: t('validation.too_long', { max: PKI_LIMITS.cnMax }) },
            ({ getFieldValue }) => ({
              validator: (_r, v: string | undefined) => {
                const problem = v ? cnProblem(getFieldValue('cnType') as CnType, v.trim()) : undefined;
                return problem ? Promise.reject(new Error(t(problem))) : Promise.resolve();
              },
            }),
          ]}
        >
          <Input id="issue-cn" dir="ltr" maxLength={PKI_LIMITS.cnMax} spellCheck={false} autoComplete="off" data-testid="issue-cn" />
        </Form.Item>
        {cleared && <Alert type="info" showIcon closable title={t('cert.cn_type_cleared')} className="cert-alert" onClose={() => setCleared(false)} />}
        <SanList defaultType={SAN_DEFAULT[cnType]} />
        <div className="cert-toolbar cert-section">
          <Form.Item name="notBefore" label={t('cert.not_before')} htmlFor="issue-not-before">
            <DatePicker id="issue-not-before" showTime />
          </Form.Item>
          <Form.Item
            name="expireAt"
            label={t('cert.expire_at')}
            htmlFor="issue-expire-at"
            dependencies={['notBefore']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_r, v: Dayjs | null | undefined) => {
                  const start = (getFieldValue('notBefore') as Dayjs | null | undefined)?.valueOf() ?? Date.now();
                  return !v || v.valueOf() > start ? Promise.resolve() : Promise.reject(new Error(t('cert.validity_order')));
                },
              }),
            ]}
          >
            <DatePicker id="issue-expire-at" showTime />
          </Form.Item>
        </div>
        {ca && <p className="ant-form-item-extra">{t('cert.validity_hint', { days: ca.defaultIssueValidPeriod, max: ca.maxIssueValidPeriod })}</p>}
        <Form.Item name="desc" label={t('cert.desc')} htmlFor="issue-desc">
          <Input.TextArea id="issue-desc" dir="auto" maxLength={200} rows={2} showCount />
        </Form.Item>
      </Form>
    </Drawer>
  );
}
