/** Every API path the console calls, in one place (STYLE §13). */
export const paths = {
  users: '/api/users',
  cert: '/api/cert',
  perm: '/api/perm',
  login: '/api/users/auth/login',
  logout: '/api/users/auth/logout',
  userDo: '/api/users/user.do',
  newauthDo: '/api/users/newauth.do',
  currentUser: '/api/perm/user/info',
  projectConfig: '/project.config.json',
} as const;
