import type { Frame } from '../../../kernel/rich/edit.ts';
import type { RichText } from '../../../kernel/rich/model.ts';
import type { MessageFit } from '../../../kernel/ports/capabilities.ts';
import { renderMarkdown } from '../../../work/presentation/format/markdown.ts';
import { messagesWithin, previewWithin } from '../../../work/presentation/format/split.ts';
import { MATTERMOST_CAPABILITIES } from '../capabilities.ts';

/** A long answer's preview leaves room in its post for a header and the size line. */
const PREVIEW_CHARS = 3000;

/** How text fits a Mattermost post: its Markdown within the post's 16,383 characters. */
export const MATTERMOST_FIT: MessageFit = Object.freeze({
  split: (text: RichText, frame: Frame = {}) => messagesWithin(text, MATTERMOST_CAPABILITIES.messageChars, renderMarkdown, frame),
  preview: (text: RichText) => previewWithin(text, PREVIEW_CHARS, renderMarkdown),
});
