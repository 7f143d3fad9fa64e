/** Exception, placeholder and account pages of the console, English reference. */
export const pages = {
  not_available_title: 'Not available yet',
  not_available: 'This screen comes in a later release. Nothing is shown here until it works for real.',
  back_home: 'Back to home',
  exception_403: 'Sorry, you are not allowed to visit this page.',
  exception_404: 'Sorry, the page you visited does not exist.',
  exception_500: 'Sorry, the server reported an error.',
  chunk_error_title: 'This page could not be loaded',
  chunk_error: 'The network may be slow, or the console was updated in the meantime.',
  retry: 'Try again',
  account_name: 'Account name',
  account_id: 'Account ID',
  realm: 'Domain',
  roles: 'Assigned roles',
  permissions: 'Permissions',
};
