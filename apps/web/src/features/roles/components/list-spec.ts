/**
 * The role page's address: the realm, the tab, and the assignments' search and role filter,
 * beside the paging of whichever table is shown (lib/use-list-params.ts). One list state for
 * both tabs: only one table is on screen, and changing tabs starts it at page 1.
 */
import type { ListSpec } from '../../../lib/use-list-params';

export type RolePageFilter = 'realmId' | 'tab' | 'q' | 'roleId';
export const ROLE_PAGE_SPEC: ListSpec<RolePageFilter> = { filters: ['realmId', 'tab', 'q', 'roleId'], pageSize: 20 };
