/**
 * The audit page's filters: actor and target (id or exact name), action (a known one, a
 * group like "all role events", or typed), result and a time range. Applied together by
 * "Search"; "Reset" clears them.
 */
import { AUDIT_ACTIONS } from '@umbo/contracts/audit';
import Button from 'antd/es/button';
import DatePicker from 'antd/es/date-picker';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import dayjs, { type Dayjs } from 'dayjs';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { actionLabel } from '../../../lib/audit-labels';
import type { AuditFilter } from '../api/get-audit';

export interface AuditFiltersProps {
  value: AuditFilter;
  onApply: (filter: AuditFilter) => void;
}

export function AuditFilters({ value, onApply }: AuditFiltersProps) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<AuditFilter>(value);
  const set = (patch: Partial<AuditFilter>) => setDraft((d) => ({ ...d, ...patch }));
  const range: [Dayjs | null, Dayjs | null] = [draft.from !== undefined ? dayjs(draft.from) : null, draft.to !== undefined ? dayjs(draft.to) : null];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply(draft);
  };

  return (
    <form className="audit-filters" onSubmit={submit} role="search" aria-label={t('audit.search')}>
      <Input
        className="audit-filters__text"
        aria-label={t('audit.filter_actor')}
        placeholder={t('audit.filter_actor')}
        value={draft.actor ?? ''}
        onChange={(e) => set({ actor: e.target.value || undefined })}
        allowClear
        data-testid="audit-filter-actor"
      />
      <Input
        className="audit-filters__text"
        aria-label={t('audit.filter_target')}
        placeholder={t('audit.filter_target')}
        value={draft.target ?? ''}
        onChange={(e) => set({ target: e.target.value || undefined })}
        allowClear
        data-testid="audit-filter-target"
      />
      <Select
        className="audit-filters__action"
        aria-label={t('audit.filter_action')}
        // An option that says "any" rather than a grey placeholder (contrast, WCAG 1.4.3).
        value={draft.action ?? ''}
        onChange={(action: string) => set({ action: action || undefined })}
        showSearch={{ optionFilterProp: 'label' }}
        options={[
          { value: '', label: `${t('audit.filter_action')}: ${t('audit.any')}` },
          ...AUDIT_ACTIONS.map((a) => ({ value: a, label: actionLabel(t, a) })),
        ]}
        popupMatchSelectWidth={false}
        data-testid="audit-filter-action"
      />
      <Select
        className="audit-filters__result"
        aria-label={t('audit.filter_result')}
        value={draft.result ?? ''}
        onChange={(result: '' | 'ok' | 'fail') => set({ result: result || undefined })}
        options={[
          { value: '', label: `${t('audit.filter_result')}: ${t('audit.any')}` },
          { value: 'ok', label: t('audit.result_ok') },
          { value: 'fail', label: t('audit.result_fail') },
        ]}
        data-testid="audit-filter-result"
      />
      <DatePicker.RangePicker
        className="audit-filters__range"
        showTime
        value={range}
        allowEmpty={[true, true]}
        placeholder={[t('audit.filter_from'), t('audit.filter_to')]}
        aria-label={`${t('audit.filter_from')} – ${t('audit.filter_to')}`}
        onChange={(v) => set({ from: v?.[0]?.valueOf() ?? undefined, to: v?.[1]?.valueOf() ?? undefined })}
      />
      <Button type="primary" htmlType="submit" data-testid="audit-search">
        {t('audit.search')}
      </Button>
      <Button
        onClick={() => {
          setDraft({});
          onApply({});
        }}
      >
        {t('audit.reset')}
      </Button>
    </form>
  );
}
