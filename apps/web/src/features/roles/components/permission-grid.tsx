/**
 * A role's permissions as a grid (issue 11): one row per realm permission id, one column per
 * SPEC §6 action. Only what the editor holds in the realm (`grantable`, from the server) can
 * be ticked; the server refuses anything wider anyway (A-40). An antd Form control:
 * `value` / `onChange` carry the grants.
 */
import Checkbox from 'antd/es/checkbox';
import Tooltip from 'antd/es/tooltip';
import { ACTIONS, type Action } from '@umbo/contracts/permissions';
import { REALM_PERMISSION_IDS, type GrantView } from '@umbo/contracts/roles';
import { useTranslation } from 'react-i18next';

export interface PermissionGridProps {
  value?: GrantView[];
  onChange?: (grants: GrantView[]) => void;
  /** what the editor may grant; everything else is shown but cannot be ticked */
  grantable: GrantView[];
  readOnly?: boolean;
  id?: string;
}

const has = (grants: readonly GrantView[] | undefined, permissionId: string, action: string) =>
  Boolean(grants?.some((g) => g.permissionId === permissionId && g.actions.includes(action)));

/** The grants with one action set or cleared, in catalogue order, empty rows dropped. */
export function toggled(grants: readonly GrantView[], permissionId: string, actions: readonly Action[], on: boolean): GrantView[] {
  return REALM_PERMISSION_IDS.map((id) => {
    const current = new Set(grants.find((g) => g.permissionId === id)?.actions ?? []);
    if (id === permissionId)
      for (const a of actions)
        if (on) current.add(a);
        else current.delete(a);
    return { permissionId: id, actions: ACTIONS.filter((a) => current.has(a)) as string[] };
  }).filter((g) => g.actions.length > 0);
}

export function PermissionGrid({ value = [], onChange, grantable, readOnly, id }: PermissionGridProps) {
  const { t } = useTranslation();
  const may = (permissionId: string, action: string) => !readOnly && has(grantable, permissionId, action);

  return (
    // On a phone the grid scrolls sideways; the scroll area is focusable (WCAG 2.1.1).
    <div className="role-grid" data-testid="permission-grid">
      <p className="role-grid__caption" id={id ? `${id}-caption` : undefined}>
        {t('roles.grid_caption')}
      </p>
      {/* The screen checks accept text past the window inside a marked scroll area (data-scrollable). */}
      <div className="role-grid__scroll" tabIndex={0} role="group" aria-label={t('roles.grid_caption')} data-scrollable="">
        <table id={id} className="role-grid__table">
          <thead>
            <tr>
              <th scope="col" className="role-grid__name">
                {t('roles.grid_permission')}
              </th>
              {ACTIONS.map((action) => (
                <th scope="col" key={action}>
                  {t(`roles.actions.${action}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {REALM_PERMISSION_IDS.map((permissionId) => {
              const name = t(`roles.perm.${permissionId}`);
              const open = ACTIONS.filter((a) => may(permissionId, a));
              const all = open.length > 0 && open.every((a) => has(value, permissionId, a));
              const some = open.some((a) => has(value, permissionId, a));
              return (
                <tr key={permissionId} data-testid={`grid-row-${permissionId}`}>
                  <th scope="row" className="role-grid__name">
                    <Checkbox
                      checked={all}
                      indeterminate={some && !all}
                      disabled={open.length === 0}
                      aria-label={t('roles.grid_all', { name })}
                      onChange={(e) => onChange?.(toggled(value, permissionId, open, e.target.checked))}
                    >
                      {name}
                    </Checkbox>
                  </th>
                  {ACTIONS.map((action) => {
                    const box = (
                      <Checkbox
                        checked={has(value, permissionId, action)}
                        disabled={!may(permissionId, action)}
                        aria-label={`${name}: ${t(`roles.actions.${action}`)}`}
                        data-testid={`grid-${permissionId}-${action}`}
                        onChange={(e) => onChange?.(toggled(value, permissionId, [action], e.target.checked))}
                      />
                    );
                    return (
                      <td key={action}>
                        {!readOnly && !has(grantable, permissionId, action) ? <Tooltip title={t('roles.not_grantable')}>{box}</Tooltip> : box}
                      </td>
                    );
                  })}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
