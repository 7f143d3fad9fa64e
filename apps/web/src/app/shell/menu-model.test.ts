import type { CurrentUser, Permission, PermissionId } from '@umbo/contracts/permissions';
import { describe, expect, it } from 'vitest';
import { areaHome, areasFor, canOpen, menuSections } from './menu-model';

function userWith(...ids: PermissionId[]): Pick<CurrentUser, 'roles'> {
  const permissions: Permission[] = ids.map((permissionId) => ({
    roleId: 'r',
    permissionId,
    permissionName: permissionId,
    actions: [],
    actionEntitySet: [],
    actionList: ['query'],
  }));
  return { roles: [{ id: 'r', name: 'r', describe: '', realmId: 'master', permissions }] };
}

const paths = (sections: ReturnType<typeof menuSections>) => sections.flatMap((s) => s.routes.map((r) => r.path));

describe('menu (SPEC §2 menu tree, §6 permissions)', () => {
  it('shows an ordinary user the user area only', () => {
    const user = userWith('center', 'security');
    // issue 12: every account sees its own OAuth records; the developer page needs userClient
    expect(paths(menuSections('user', user))).toEqual(['/account/center', '/account/security', '/user/oauth']);
    expect(paths(menuSections('user', userWith('center', 'security', 'userClient')))).toContain('/user/developer');
    expect(menuSections('domain', user)).toEqual([]);
    expect(areasFor(user)).toEqual(['user']);
  });

  it('lists the domain area in groups, in SPEC order, for an administrator', () => {
    const admin = userWith('center', 'security', 'domain', 'domainCert', 'certList', 'keys', 'tools', 'service');
    const sections = menuSections('domain', admin);
    expect(sections.map((s) => s.group)).toEqual(['group_domain', 'group_cert']);
    expect(paths(sections)).toEqual(['/account/domain', '/account/domain/cert', '/account/cert/list', '/account/cert/keys', '/account/cert/other']);
    expect(areasFor(admin)).toEqual(['user', 'domain']);
    expect(areaHome('domain', admin)).toBe('/account/domain');
  });

  it('leaves out entries the user lacks permission for', () => {
    expect(paths(menuSections('domain', userWith('keys')))).toEqual(['/account/cert/keys']);
  });

  it('opens a route only with its permission', () => {
    const route = { name: 'person', path: '/account/person', title: 'person' as const, permission: 'person' as const };
    expect(canOpen(route, userWith('person'))).toBe(true);
    expect(canOpen(route, userWith('center'))).toBe(false);
    expect(canOpen(route, undefined)).toBe(false);
  });
});
