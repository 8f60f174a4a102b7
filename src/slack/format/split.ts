import { concat, framed, slice, type Frame } from '../../rich/edit.ts';
import { plain } from '../../rich/build.ts';
import { CutRank, type RichText } from '../../rich/model.ts';
import { plainText } from '../../rich/plain.ts';
import { nextChunk, splitRendered } from '../../presentation/format/split.ts';
import { SLACK_CAPABILITIES } from '../capabilities.ts';
import { renderMrkdwn } from './mrkdwn.ts';

/**
 * The messages `text` takes on Slack, `header` opening the first and `footer` closing the last:
 * each within a section block's limit as mrkdwn (what a message with buttons shows its text in)
 * and as plain text, so a message can gain buttons later without growing past it.
 */
export function slackMessagesOf(text: RichText, frame: Frame = {}): RichText[] {
  const room = (line: RichText | undefined) => (line ? Math.max(renderMrkdwn(line).length, plainText(line).length) + 2 : 0);
  return framed(splitRendered(text, SLACK_CAPABILITIES.messageChars - room(frame.header) - room(frame.footer), renderMrkdwn), frame);
}

/** A long answer's opening, for the comment of the snippet that carries it whole. */
const PREVIEW_CHARS = 700;

export function slackPreview(rich: RichText): RichText {
  if (renderMrkdwn(rich).length <= PREVIEW_CHARS) return rich;
  const chunk = nextChunk(rich, 0, PREVIEW_CHARS - 2, renderMrkdwn);
  return concat([slice(rich, chunk.start, chunk.end, { bare: chunk.bare }), plain(chunk.rank >= CutRank.line ? '\n…' : '…')]);
}
