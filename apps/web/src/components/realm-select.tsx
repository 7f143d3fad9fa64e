/**
 * Chooses the realm (domain) a page works in, among those the signed-in user may see
 * (GET /api/users/realms answers exactly those; a user without domain.query sees their own
 * realm only). `allowAll` adds "All domains" ('*'), for administrators of master, whom the
 * server lets read every realm at once. Searching asks the server (prefix of id or domain).
 */
import { ALL_REALMS } from '@umbo/contracts/audit';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import { realmPaths, type RealmListResult } from '@umbo/contracts/realms';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import Select from 'antd/es/select';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client';

export interface RealmSelectProps {
  user: CurrentUser;
  value: string;
  onChange: (realmId: string) => void;
  allowAll?: boolean;
  id?: string;
  className?: string;
}

/** True for `admin` bound in master: the one role the server lets read every realm. */
export function isPlatformAdmin(user: CurrentUser): boolean {
  return user.realmId === 'master' && user.roles.some((r) => r.id === 'admin');
}

export function RealmSelect({ user, value, onChange, allowAll, id, className }: RealmSelectProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const listable = can(user, 'domain', 'query');
  const { data, isFetching } = useQuery({
    queryKey: ['realm-options', search] as const,
    queryFn: ({ signal }) => api.get<RealmListResult>(`${realmPaths.list}?limit=50${search ? `&q=${encodeURIComponent(search)}` : ''}`, { signal }),
    enabled: listable,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    meta: { inlineError: true },
  });
  const ids = new Set<string>([user.realmId, ...(data?.items.map((r) => r.realmId) ?? [])]);
  if (value !== ALL_REALMS) ids.add(value);
  const options = [
    ...(allowAll ? [{ value: ALL_REALMS, label: t('audit.all_realms') }] : []),
    ...[...ids].map((realmId) => {
      const domain = data?.items.find((r) => r.realmId === realmId)?.domain;
      return { value: realmId, label: domain && domain !== realmId ? `${realmId} (${domain})` : realmId };
    }),
  ];
  return (
    <Select
      id={id}
      className={className}
      aria-label={t('audit.realm')}
      value={value}
      onChange={onChange}
      options={options}
      showSearch={listable ? { filterOption: false, onSearch: setSearch } : false}
      loading={isFetching}
      popupMatchSelectWidth={false}
      data-testid="realm-select"
    />
  );
}
