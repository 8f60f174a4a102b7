// Markdown (an agent's answer) to the core's rich text, and helpers for text shown in a chat.
export { escapeMarkdown } from './entities.ts';
export { truncate } from './truncate.ts';
export { parseMarkdown } from './parse.ts';
