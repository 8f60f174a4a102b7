import type { MessageFit } from '../../kernel/ports/capabilities.ts';
import type { Frame } from '../../kernel/rich/edit.ts';
import type { RichText } from '../../kernel/rich/model.ts';
import { plainText } from '../../kernel/rich/plain.ts';
import { messagesWithin, previewWithin } from '../../work/presentation/format/split.ts';
import { TEAMS_CAPABILITIES } from './capabilities.ts';

/** The messages `text` takes on Teams: each within its limit as its plain text is sent. */
function teamsMessages(text: RichText, frame: Frame = {}): RichText[] {
  return messagesWithin(text, TEAMS_CAPABILITIES.messageChars, plainText, frame);
}

/** A long answer's preview leaves room in its message for a header and the size line. */
const PREVIEW_CHARS = 1500;

function teamsPreview(rich: RichText): RichText {
  return previewWithin(rich, PREVIEW_CHARS, plainText);
}

/** How text fits a Teams message. */
export const TEAMS_FIT: MessageFit = Object.freeze({ split: teamsMessages, preview: teamsPreview });
