/** Messages of the console's HTTP error policy (SPEC §8 "HTTP"), English reference. */
export const http = {
  forbidden: 'Forbidden',
  unauthorized: 'Unauthorized',
  unauthorized_desc: 'Authorization verification failed',
  request_failed: 'Request failed',
  server_error: 'Server error ({{status}})',
  no_response: 'Server not responding, please try again later',
  timeout: 'Data acquisition timed out',
  roles_missing: 'getInfo: roles must be a non-null array !',
  request_timeout: 'Request timeout',
  permission_insufficient: 'Permission not defined or insufficient',
};
