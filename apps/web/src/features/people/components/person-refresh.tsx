/**
 * Issue 14: "Refresh from backend" for person accounts of a realm behind an IT-interface
 * backend (ecogloble, default): a bulk action on the list's selection, a button in the person
 * drawer, and what the refresh did. Offered only to users who may edit persons, and only when
 * the realm has such a backend; the server decides both again.
 */
import Button from 'antd/es/button';
import Modal from 'antd/es/modal';
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import type { PersonDetail } from '@umbo/contracts/people';
import { PERSON_REFRESH_RESULTS, type PersonRefreshItem, type PersonRefreshResult } from '@umbo/contracts/people-refresh';
import { useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { confirm, showInfo } from '../../../lib/feedback';
import { usePersonRefreshState, useRefreshPersons } from '../api/person-refresh';
import './person-refresh.css';

/** Ids listed per outcome in the result; the count covers the rest. */
const SHOWN_IDS = 20;

/** Is the refresh offered to this user in this realm? */
export function useRefreshOffered(realmId: string, user: CurrentUser | undefined): boolean {
  const mayEdit = can(user, 'person', 'edit');
  const { data } = usePersonRefreshState(realmId, mayEdit);
  return mayEdit && Boolean(data?.backend);
}

/**
 * The list's bulk action: a button for the selection bar (undefined when not offered) and the
 * result dialog to render beside the table.
 */
export function useBulkRefresh(realmId: string, user: CurrentUser | undefined, selected: Key[], clear: () => void): { button?: ReactNode; dialog: ReactNode } {
  const { t } = useTranslation();
  const offered = useRefreshOffered(realmId, user);
  const refresh = useRefreshPersons(realmId);
  const [result, setResult] = useState<PersonRefreshResult>();
  const ask = () =>
    confirm({
      title: t('people.person.confirm_bulk_refresh', { count: selected.length }),
      onOk: () =>
        refresh.mutateAsync(selected.map(String)).then((r) => {
          clear();
          setResult(r);
        }),
    });
  return {
    button: offered ? (
      <Button size="small" onClick={ask} loading={refresh.isPending} data-testid="person-bulk-refresh">
        {t('people.person.refresh')}
      </Button>
    ) : undefined,
    dialog: result && <PersonRefreshResultDialog result={result} onClose={() => setResult(undefined)} />,
  };
}

export function PersonRefreshResultDialog({ result, onClose }: { result: PersonRefreshResult; onClose: () => void }) {
  const { t } = useTranslation();
  const fieldName = (f: NonNullable<PersonRefreshItem['field']>) => t(`people.person.${f}`);
  const groups = PERSON_REFRESH_RESULTS.map((outcome) => ({ outcome, items: result.items.filter((i) => i.result === outcome) })).filter(
    (g) => g.items.length > 0,
  );
  return (
    <Modal open title={t('people.person.refresh_title', { backend: result.backend })} footer={null} onCancel={onClose} destroyOnHidden>
      <ul className="person-refresh__result" data-testid="person-refresh-result">
        {groups.map(({ outcome, items }) => (
          <li key={outcome} data-testid={`person-refresh-${outcome}`}>
            {t(`people.person.refresh_${outcome}`, { count: items.length })}
            {/* the ones that need a look are named; "updated" and "unchanged" need none */}
            {outcome !== 'updated' && outcome !== 'unchanged' && (
              <div className="person-refresh__ids">
                {items.slice(0, SHOWN_IDS).map((i, n) => (
                  <span key={i.id}>
                    {n > 0 && ', '}
                    <span dir="ltr">{i.id}</span>
                    {i.field && ` (${fieldName(i.field)})`}
                  </span>
                ))}
                {items.length > SHOWN_IDS && ' …'}
              </div>
            )}
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** The drawer's button: refreshes this one account and says what happened. */
export function PersonRefreshButton({ realmId, person, user }: { realmId: string; person: PersonDetail; user: CurrentUser }) {
  const { t } = useTranslation();
  const offered = useRefreshOffered(realmId, user);
  const refresh = useRefreshPersons(realmId);
  if (!offered) return null;
  const run = () =>
    refresh.mutate([person.id], {
      onSuccess: (r) => {
        const item = r.items[0];
        if (!item) return;
        showInfo((say) => {
          const field = (f: string) => say(`people.person.${f}` as 'people.person.email');
          if (item.result === 'updated') return say('people.person.refresh_one_updated', { fields: (item.changes ?? []).map(field).join(', ') });
          if (item.result === 'conflict') return say('people.person.refresh_one_conflict', { field: item.field ? field(item.field) : '' });
          return say(`people.person.refresh_one_${item.result}`);
        });
      },
    });
  return (
    <section className="person-drawer__section" data-testid="person-refresh">
      <Button onClick={run} loading={refresh.isPending} data-testid="person-refresh-button">
        {t('people.person.refresh')}
      </Button>
      <p className="person-refresh__hint">{t('people.person.refresh_hint')}</p>
    </section>
  );
}
