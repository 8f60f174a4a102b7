// Markdown (an agent's answer) to the core's rich text, and helpers for text shown in a chat.
import { plainText } from '../../../kernel/rich/plain.ts';
import { parseMarkdown } from './parse.ts';

export { escapeMarkdown } from './entities.ts';
export { truncate } from './truncate.ts';
export { parseMarkdown };

/** The answer without markup; link targets follow their labels in parentheses. */
export function markdownToPlainText(md: string): string {
  return plainText(parseMarkdown(md));
}
