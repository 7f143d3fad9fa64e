/**
 * A service account's "resources" (SPEC §2): permission id × action checkboxes, offering only
 * what its owner holds and the caller may pass on (the server's `grantable`); what is in effect
 * now (within the owner's current permissions) is shown beside. Saving replaces the set.
 */
import Alert from 'antd/es/alert';
import Checkbox from 'antd/es/checkbox';
import Modal from 'antd/es/modal';
import Spin from 'antd/es/spin';
import Tag from 'antd/es/tag';
import type { Action, PermissionId } from '@umbo/contracts/permissions';
import type { ServiceAccountView, ServiceGrant, ServiceScope } from '@umbo/contracts/service-accounts';
import type { TFunction } from 'i18next';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showInfo } from '../../../lib/feedback';
import { useServiceResources, useSetServiceResources } from '../api/service-resources';

type Checked = Record<string, string[]>;

/** A permission id's name, as the role page names it. */
const permissionLabel = (t: TFunction, id: string) => t(`roles.perm.${id as PermissionId}`);

export function ServiceResourcesDialog({
  scope,
  service,
  canEdit,
  onClose,
}: {
  scope: ServiceScope;
  service: ServiceAccountView;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { data, error, isPending } = useServiceResources(scope, service.sub_id);
  const save = useSetServiceResources(scope, service.sub_id);
  const [checked, setChecked] = useState<Checked>({});
  useEffect(() => {
    if (data) setChecked(Object.fromEntries(data.grants.map((g) => [g.permissionId, g.actions])));
  }, [data]);

  const onOk = () => {
    // Only what may be granted is sent: a stored grant the owner no longer holds counts for nothing anyway.
    const grants = (data?.grantable ?? [])
      .map((g) => ({ permissionId: g.permissionId, actions: g.actions.filter((a) => checked[g.permissionId]?.includes(a)) }))
      .filter((g) => g.actions.length > 0) as ServiceGrant[];
    save.mutate(grants, {
      onSuccess: () => {
        showInfo((say) => say('people.service.saved'));
        onClose();
      },
    });
  };

  const actionLabel = (a: string) => t(`roles.actions.${a as Action}`);
  return (
    <Modal
      open
      title={t('people.service.resources_title', { account: service.account })}
      onCancel={onClose}
      onOk={canEdit ? onOk : undefined}
      footer={canEdit ? undefined : null}
      okButtonProps={{ disabled: !data }}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={720}
      data-testid="service-resources-dialog"
    >
      <Alert type="info" showIcon title={t('people.service.resources_hint')} className="service-page__hint" />
      {isPending && <Spin />}
      {error && <Alert type="error" showIcon title={error.message} />}
      {data && data.grantable.length === 0 && <Alert type="warning" showIcon title={t('people.service.resources_nothing')} />}
      {data && data.grantable.length > 0 && (
        <table className="service-grants">
          <thead>
            <tr>
              <th scope="col">{t('people.service.permission')}</th>
              <th scope="col">{t('people.service.resources')}</th>
            </tr>
          </thead>
          <tbody>
            {data.grantable.map((g) => (
              <tr key={g.permissionId} data-testid={`grant-${g.permissionId}`}>
                <th scope="row" id={`grant-label-${g.permissionId}`}>
                  {permissionLabel(t, g.permissionId)}
                </th>
                <td>
                  <Checkbox.Group
                    aria-labelledby={`grant-label-${g.permissionId}`}
                    disabled={!canEdit}
                    value={checked[g.permissionId] ?? []}
                    onChange={(values) => setChecked((c) => ({ ...c, [g.permissionId]: values as string[] }))}
                    options={g.actions.map((a) => ({ value: a, label: actionLabel(a) }))}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {data && (
        <div className="service-page__effective" data-testid="service-effective">
          <strong>{t('people.service.resources_effective')}: </strong>
          {data.effective.length === 0
            ? '—'
            : data.effective.flatMap((g) =>
                g.actions.map((a) => (
                  <Tag key={`${g.permissionId}.${a}`}>
                    {permissionLabel(t, g.permissionId)} · {actionLabel(a)}
                  </Tag>
                )),
              )}
        </div>
      )}
    </Modal>
  );
}
