// Rich text as Telegram shows it: HTML, cut into messages and captions that fit.
export { escapeHtml } from '../../../kernel/rich/html.ts';
export { renderHtml } from './html.ts';
export { captionPreview, preview, TELEGRAM_CAPTION_LIMIT } from './preview.ts';
export { documentPreview, markdownToTelegramHtml, splitForTelegram } from './render.ts';
export { messagesOf, splitMessages, TELEGRAM_MESSAGE_LIMIT } from './split.ts';
