import type { Phrases } from '../types.js';

export const http: Phrases['http'] = {
  forbidden: 'Interdit',
  unauthorized: 'Non autorisé',
  unauthorized_desc: "La vérification de l'autorisation a échoué",
  request_failed: 'La requête a échoué',
  server_error: 'Erreur du serveur ({{status}})',
  no_response: 'Le serveur ne répond pas, veuillez réessayer plus tard',
  timeout: "Délai d'obtention des données dépassé",
  roles_missing: 'getInfo : roles doit être un tableau non nul !',
  request_timeout: 'Délai de la requête dépassé',
  permission_insufficient: 'Autorisation non définie ou insuffisante',
};
