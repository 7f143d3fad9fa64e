import type { Phrases } from '../types.js';

export const pages: Phrases['pages'] = {
  not_available_title: 'Ainda não disponível',
  not_available: 'Esta tela chega em uma versão futura. Nada é exibido aqui até que funcione de verdade.',
  back_home: 'Voltar ao início',
  exception_403: 'Desculpe, você não tem acesso a esta página.',
  exception_404: 'Desculpe, a página que você visitou não existe.',
  exception_500: 'Desculpe, o servidor relatou um erro.',
  chunk_error_title: 'Não foi possível carregar esta página',
  chunk_error: 'A rede pode estar lenta, ou o console foi atualizado nesse meio-tempo.',
  retry: 'Tentar novamente',
  account_name: 'Nome da conta',
  account_id: 'ID da conta',
  realm: 'Domínio',
  roles: 'Funções atribuídas',
  permissions: 'Permissões',
};
