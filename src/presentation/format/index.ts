// Markdown → Telegram formatting, transport-neutral (no grammY here).
export { escapeHtml, escapeMarkdown } from './escape.ts';
export { truncate } from './truncate.ts';
export { markdownToPlainText, markdownToTelegramHtml } from './render.ts';
export { splitForTelegram, TELEGRAM_MESSAGE_LIMIT, type TelegramChunk } from './split.ts';
export { documentPreview, TELEGRAM_CAPTION_LIMIT } from './preview.ts';
