/**
 * Issue 14: the account's links to upstream OpenID identities (issuer + subject), in the person
 * drawer. Removing one means that identity no longer signs in as this account (its next
 * sign-in makes a new account), so it asks first; only users who may edit persons see it.
 */
import Button from 'antd/es/button';
import List from 'antd/es/list';
import Popconfirm from 'antd/es/popconfirm';
import type { PersonDetail } from '@umbo/contracts/people';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useFormat } from '../../../lib/format';
import { usePersonFederatedLinks, useRemoveFederatedLink } from '../api/person-federated';

export function PersonUpstreamLinks({ realmId, person, canRemove }: { realmId: string; person: PersonDetail; canRemove: boolean }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { data, isPending } = usePersonFederatedLinks(realmId, person.id);
  const remove = useRemoveFederatedLink(realmId, person.id);
  const onRemove = (linkId: string) => remove.mutateAsync(linkId).then(() => showInfo((say) => say('people.person.upstream_removed')));
  return (
    <section className="person-drawer__section" data-testid="person-upstream-links">
      <h3>{t('people.person.upstream_title')}</h3>
      <List
        loading={isPending}
        dataSource={data ?? []}
        rowKey="id"
        locale={{ emptyText: t('people.person.upstream_empty') }}
        renderItem={(link) => (
          <List.Item
            data-testid="person-upstream-link"
            actions={
              canRemove
                ? [
                    <Popconfirm key="remove" title={t('people.person.upstream_confirm_remove', { name: person.username })} onConfirm={() => onRemove(link.id)}>
                      <Button size="small" danger data-testid="person-upstream-remove">
                        {t('people.person.upstream_remove')}
                      </Button>
                    </Popconfirm>,
                  ]
                : []
            }
          >
            <List.Item.Meta
              title={
                <span className="person-drawer__value">
                  {t('people.person.upstream_issuer')}: <span dir="ltr">{link.issuer}</span>
                </span>
              }
              description={
                <span>
                  {t('people.person.upstream_subject')}: <span dir="ltr">{link.subject}</span> · {t('people.person.email')}:{' '}
                  {link.email ? <span dir="ltr">{link.email}</span> : '—'} · {t('people.person.upstream_linked')}: {format.dateTime(link.linkedAt)}
                </span>
              }
            />
          </List.Item>
        )}
      />
    </section>
  );
}
