import type { ChatCapabilities, MessageFit } from '../../kernel/ports/capabilities.ts';
import type { Frame } from '../../kernel/rich/edit.ts';
import type { RichText } from '../../kernel/rich/model.ts';
import { messagesWithin, previewWithin, type Render } from '../../work/presentation/format/split.ts';

type Shared = 'threads' | 'drafts' | 'reactions' | 'pictures';

/** A chat app's capabilities, frozen: its own limits, over what the apps share (threads, reactions, pictures; no drafts kept). */
export function appCapabilities(own: Omit<ChatCapabilities, Shared> & Partial<Pick<ChatCapabilities, Shared>>): ChatCapabilities {
  return Object.freeze({ threads: true, drafts: false, reactions: true, pictures: true, ...own });
}

/**
 * How text fits an app's messages: each within `chars` as `render` writes what is sent; a long
 * answer's preview (for the file carrying it) within `previewChars`, leaving room in its message
 * for a header and the size line; none where files take no caption.
 */
export function fitWithin(chars: number, render: Render, previewChars?: number): MessageFit {
  return Object.freeze({
    split: (text: RichText, frame: Frame = {}) => messagesWithin(text, chars, render, frame),
    preview: (text: RichText) => (previewChars === undefined ? undefined : previewWithin(text, previewChars, render)),
  });
}
