/**
 * The menu of SPEC §2, derived from the route tree: only the area (user or domain) of the
 * current route, only entries the user holds the permission for (SPEC §6).
 */
import { can, type CurrentUser } from '@umbo/contracts/permissions';
import { SIGNED_IN_ROUTES, type ConsoleRoute, type MenuArea, type MenuGroup } from '@umbo/contracts/routes';

export interface MenuSection {
  group: MenuGroup;
  routes: ConsoleRoute[];
}

type User = Pick<CurrentUser, 'roles'> | undefined;

export function canOpen(route: ConsoleRoute, user: User): boolean {
  return route.permission === undefined || can(user, route.permission);
}

export function menuSections(area: MenuArea, user: User, routes: readonly ConsoleRoute[] = SIGNED_IN_ROUTES): MenuSection[] {
  const sections: MenuSection[] = [];
  for (const route of routes) {
    if (!route.menu || route.area !== area || !canOpen(route, user)) continue;
    let section = sections.find((s) => s.group === route.menu);
    if (!section) {
      section = { group: route.menu, routes: [] };
      sections.push(section);
    }
    section.routes.push(route);
  }
  return sections;
}

/** The first menu entry of an area the user may open: where switching areas lands. */
export function areaHome(area: MenuArea, user: User): string | undefined {
  return menuSections(area, user)[0]?.routes[0]?.path;
}

/** Areas with at least one menu entry for this user, user area first. */
export function areasFor(user: User): MenuArea[] {
  return (['user', 'domain'] as const).filter((area) => areaHome(area, user) !== undefined);
}
