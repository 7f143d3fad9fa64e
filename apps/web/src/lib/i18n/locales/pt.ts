/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { pt as default } from '@umbo/contracts/phrases/pt/index';
