/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { it as default } from '@umbo/contracts/phrases/it/index';
