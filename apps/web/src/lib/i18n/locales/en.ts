/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { en as default } from '@umbo/contracts/phrases/en/index';
