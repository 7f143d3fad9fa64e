/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { de as default } from '@umbo/contracts/phrases/de/index';
