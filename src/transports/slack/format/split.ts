import type { Frame } from '../../../kernel/rich/edit.ts';
import type { RichText } from '../../../kernel/rich/model.ts';
import { messagesWithin, previewWithin } from '../../../work/presentation/format/split.ts';
import { SLACK_CAPABILITIES } from '../capabilities.ts';
import { renderMrkdwn } from './mrkdwn.ts';

/**
 * The messages `text` takes on Slack, `header` opening the first and `footer` closing the last:
 * each within a section block's limit as mrkdwn (what a message with buttons shows its text in)
 * and as plain text, so a message can gain buttons later without growing past it.
 */
export function slackMessagesOf(text: RichText, frame: Frame = {}): RichText[] {
  return messagesWithin(text, SLACK_CAPABILITIES.messageChars, renderMrkdwn, frame);
}

/** A long answer's opening, for the comment of the snippet that carries it whole. */
const PREVIEW_CHARS = 700;

export function slackPreview(rich: RichText): RichText {
  return previewWithin(rich, PREVIEW_CHARS, renderMrkdwn);
}
