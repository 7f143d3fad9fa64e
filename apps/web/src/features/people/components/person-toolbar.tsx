/**
 * The person list's search and filters (issue 11): text searched by prefix (or as a part) in
 * all fields or one, the registration time range, and which realm is shown. Everything is
 * written to the address through the list state; a new search starts from the first page.
 */
import DatePicker from 'antd/es/date-picker';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Tag from 'antd/es/tag';
import dayjs from 'dayjs';
import { PERSON_LIMITS } from '@umbo/contracts/people';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { ListState } from '../../../lib/use-list-params';

export type PersonFilterName = 'q' | 'field' | 'match' | 'status' | 'activated' | 'from' | 'to' | 'cursor';

export interface PersonToolbarProps {
  list: ListState<PersonFilterName, 'created' | 'username'>;
  realmId: string;
  ownRealmId: string;
}

const FIELDS = ['any', 'username', 'email', 'phone', 'id'] as const;

export function PersonToolbar({ list, realmId, ownRealmId }: PersonToolbarProps) {
  const { t } = useTranslation();
  const [, setSearch] = useSearchParams();
  const f = list.filters;
  const set = (filters: Partial<Record<PersonFilterName, string | undefined>>) => list.change({ filters: { ...filters, cursor: undefined } });
  const range: [dayjs.Dayjs | null, dayjs.Dayjs | null] = [f.from ? dayjs(Number(f.from)) : null, f.to ? dayjs(Number(f.to)) : null];

  const switchRealm = (next: string) =>
    setSearch((prev) => {
      const q = new URLSearchParams(prev);
      const id = next.trim();
      if (id && id !== ownRealmId) q.set('realmId', id);
      else q.delete('realmId');
      q.delete('cursor');
      return q;
    });

  return (
    <div className="person-toolbar">
      <span className="person-toolbar__realm">
        {t('people.person.realm')}:{' '}
        <Tag color="blue" data-testid="person-realm">
          <span dir="ltr">{realmId}</span>
        </Tag>
      </span>
      {/* Only the platform's administrators reach other realms; the server decides anyway. */}
      {ownRealmId === 'master' && (
        <Input.Search
          key={`realm-${realmId}`}
          id="person-realm-switch"
          className="person-toolbar__realm-switch"
          aria-label={t('people.person.realm_switch')}
          placeholder={t('people.person.realm_switch')}
          defaultValue={realmId}
          style={{ width: 200 }}
          onSearch={switchRealm}
        />
      )}
      <Select
        aria-label={t('people.person.search_in')}
        value={f.field ?? 'any'}
        onChange={(field: string) => set({ field: field === 'any' ? undefined : field })}
        options={FIELDS.map((x) => ({ value: x, label: t(`people.person.field_${x}`) }))}
        popupMatchSelectWidth={false}
        data-testid="person-search-field"
      />
      <Select
        aria-label={t('people.person.match')}
        value={f.match ?? 'prefix'}
        onChange={(match: string) => set({ match: match === 'prefix' ? undefined : match })}
        options={[
          { value: 'prefix', label: t('people.person.match_prefix') },
          { value: 'contains', label: t('people.person.match_contains') },
        ]}
        popupMatchSelectWidth={false}
      />
      <Input.Search
        // A new address (back button, a link) starts the box from what it says.
        key={f.q ?? ''}
        id="person-search"
        className="person-toolbar__search"
        aria-label={t('people.person.search')}
        placeholder={t('people.person.search_placeholder')}
        maxLength={PERSON_LIMITS.searchMax}
        allowClear
        defaultValue={f.q}
        enterButton={t('people.person.search')}
        onSearch={(q) => set({ q })}
      />
      <DatePicker.RangePicker
        value={range}
        allowEmpty={[true, true]}
        aria-label={t('people.person.registered_range')}
        onChange={(v) =>
          set({
            from: v?.[0] ? String(v[0].startOf('day').valueOf()) : undefined,
            // the whole last day: `to` is exclusive
            to: v?.[1] ? String(v[1].endOf('day').valueOf() + 1) : undefined,
          })
        }
      />
    </div>
  );
}
