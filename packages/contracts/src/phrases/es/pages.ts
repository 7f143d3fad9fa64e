import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: 'Aún no disponible',
  not_available: 'Esta pantalla llegará en una versión posterior. No se muestra nada aquí hasta que funcione de verdad.',
  back_home: 'Volver al inicio',
  exception_403: 'Lo sentimos, no tiene permiso para ver esta página.',
  exception_404: 'Lo sentimos, la página que visitó no existe.',
  exception_500: 'Lo sentimos, el servidor informó de un error.',
  chunk_error_title: 'No se pudo cargar esta página',
  chunk_error: 'Puede que la red sea lenta o que la consola se haya actualizado mientras tanto.',
  retry: 'Reintentar',
  account_name: 'Nombre de la cuenta',
  account_id: 'ID de la cuenta',
  realm: 'Dominio',
  roles: 'Roles asignados',
  permissions: 'Permisos',
};
