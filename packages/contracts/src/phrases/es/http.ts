import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'Prohibido',
  unauthorized: 'No autorizado',
  unauthorized_desc: 'La verificación de la autorización falló',
  request_failed: 'La solicitud falló',
  server_error: 'Error del servidor ({{status}})',
  no_response: 'El servidor no responde, inténtelo de nuevo más tarde',
  timeout: 'Se agotó el tiempo de obtención de datos',
  roles_missing: 'getInfo: ¡roles debe ser una matriz no nula!',
  request_timeout: 'Tiempo de espera de la solicitud agotado',
  permission_insufficient: 'Permiso no definido o insuficiente',
};
