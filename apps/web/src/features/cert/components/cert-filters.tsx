/** The certificate list's filters (status, expiring within N days, key, CN prefix, exact serial number in decimal), applied together. */
import Button from 'antd/es/button';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { CERT_STATUSES, type KeyView } from '@umbo/contracts/pki';
import { SERIAL_NUMBER } from '@umbo/contracts/checks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

export interface CertFilter {
  status?: string | undefined;
  expiringWithinDays?: string | undefined;
  keyId?: string | undefined;
  cn?: string | undefined;
  sn?: string | undefined;
}

export function CertFilters({ value, keys, onApply }: { value: CertFilter; keys: KeyView[]; onApply: (f: CertFilter) => void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<CertFilter>(value);
  const set = (patch: CertFilter) => setDraft({ ...draft, ...patch });
  const snBad = Boolean(draft.sn) && !SERIAL_NUMBER.test(draft.sn!);
  const daysBad = Boolean(draft.expiringWithinDays) && !/^\d{1,4}$/.test(draft.expiringWithinDays!);
  const apply = () => !snBad && !daysBad && onApply(draft);

  return (
    <form
      className="cert-toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
      data-testid="cert-filters"
    >
      <div className="cert-toolbar__field">
        <label htmlFor="cert-filter-status">{t('cert.filter_status')}</label>
        <Select
          id="cert-filter-status"
          className="cert-toolbar__select"
          value={draft.status ?? ''}
          onChange={(status: string) => set({ status: status || undefined })}
          options={[{ value: '', label: t('cert.filter_all') }, ...CERT_STATUSES.map((s) => ({ value: s, label: t(`cert.status_${s}`) }))]}
        />
      </div>
      <div className="cert-toolbar__field">
        <label htmlFor="cert-filter-days">{t('cert.filter_expiring')}</label>
        <Input
          id="cert-filter-days"
          className="cert-toolbar__days"
          inputMode="numeric"
          dir="ltr"
          value={draft.expiringWithinDays ?? ''}
          status={daysBad ? 'error' : undefined}
          aria-invalid={daysBad}
          onChange={(e) => set({ expiringWithinDays: e.target.value.trim() || undefined })}
        />
      </div>
      <div className="cert-toolbar__field">
        <label htmlFor="cert-filter-key">{t('cert.filter_key')}</label>
        <Select
          id="cert-filter-key"
          className="cert-toolbar__select"
          value={draft.keyId ?? ''}
          onChange={(keyId: string) => set({ keyId: keyId || undefined })}
          options={[{ value: '', label: t('cert.filter_all_keys') }, ...keys.map((k) => ({ value: k.id, label: k.name }))]}
        />
      </div>
      <div className="cert-toolbar__field">
        <label htmlFor="cert-filter-cn">{t('cert.filter_cn')}</label>
        <Input id="cert-filter-cn" className="cert-toolbar__text" dir="ltr" value={draft.cn ?? ''} onChange={(e) => set({ cn: e.target.value || undefined })} />
      </div>
      <div className="cert-toolbar__field">
        <label htmlFor="cert-filter-sn">{t('cert.filter_sn')}</label>
        <Input
          id="cert-filter-sn"
          className="cert-toolbar__text"
          inputMode="numeric"
          dir="ltr"
          value={draft.sn ?? ''}
          status={snBad ? 'error' : undefined}
          aria-invalid={snBad}
          aria-describedby={snBad ? 'cert-filter-sn-error' : undefined}
          onChange={(e) => set({ sn: e.target.value.trim() || undefined })}
        />
        {snBad && (
          <span id="cert-filter-sn-error" role="alert" className="ant-form-item-explain-error">
            {t('validation.serial')}
          </span>
        )}
      </div>
      <div className="cert-actions">
        <Button type="primary" htmlType="submit" data-testid="cert-filter-apply">
          {t('cert.search')}
        </Button>
        <Button
          onClick={() => {
            setDraft({});
            onApply({});
          }}
        >
          {t('cert.reset')}
        </Button>
      </div>
    </form>
  );
}
