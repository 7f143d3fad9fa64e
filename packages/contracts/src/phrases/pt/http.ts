import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'Proibido',
  unauthorized: 'Não autorizado',
  unauthorized_desc: 'A verificação da autorização falhou',
  request_failed: 'A solicitação falhou',
  server_error: 'Erro do servidor ({{status}})',
  no_response: 'O servidor não responde, tente novamente mais tarde',
  timeout: 'Tempo esgotado ao obter os dados',
  roles_missing: 'getInfo: roles deve ser um array não nulo!',
  request_timeout: 'Tempo limite da solicitação',
  permission_insufficient: 'Permissão não definida ou insuficiente',
};
