/** The built-in roles' descriptions in the reader's language (the server keeps one English text). */
export const BUILTIN_DESCRIBE = {
  admin: 'roles.builtin_admin',
  'realm-admin': 'roles.builtin_realm_admin',
  'realm-viewer': 'roles.builtin_realm_viewer',
} as const;

export const builtinDescribeKey = (roleId: string) => (roleId in BUILTIN_DESCRIBE ? BUILTIN_DESCRIBE[roleId as keyof typeof BUILTIN_DESCRIBE] : undefined);
