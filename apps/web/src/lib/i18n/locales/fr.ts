/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { fr as default } from '@umbo/contracts/phrases/fr/index';
