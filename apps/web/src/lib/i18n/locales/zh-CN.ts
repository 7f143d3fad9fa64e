/** Phrases of one locale: a chunk of its own, loaded when the language is chosen. */
export { zhCN as default } from '@umbo/contracts/phrases/zh-CN/index';
