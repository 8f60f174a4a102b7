import type { MessageFit } from '../../../kernel/ports/capabilities.ts';
import type { Frame } from '../../../kernel/rich/edit.ts';
import type { RichText } from '../../../kernel/rich/model.ts';
import type { RangeOptions } from '../../../kernel/rich/range.ts';
import { messagesWithin, previewWithin } from '../../../work/presentation/format/split.ts';
import { TEAMS_CAPABILITIES } from '../capabilities.ts';
import { renderCardMarkdown } from './card-markdown.ts';
import { renderTeamsHtml } from './html.ts';

/** A range as Teams is sent it: the longer of its HTML and its card text, as either may carry it (with buttons or without). */
function teamsMarkup(rich: RichText, from: number, to: number, options?: RangeOptions): string {
  const html = renderTeamsHtml(rich, from, to, options);
  const card = renderCardMarkdown(rich, from, to, options);
  return card.length > html.length ? card : html;
}

/** The messages `text` takes on Teams: each within its limit as its markup is sent. */
function teamsMessages(text: RichText, frame: Frame = {}): RichText[] {
  return messagesWithin(text, TEAMS_CAPABILITIES.messageChars, teamsMarkup, frame);
}

/** A long answer's preview leaves room in its message for a header and the size line. */
const PREVIEW_CHARS = 1500;

function teamsPreview(rich: RichText): RichText {
  return previewWithin(rich, PREVIEW_CHARS, teamsMarkup);
}

/** How text fits a Teams message. */
export const TEAMS_FIT: MessageFit = Object.freeze({ split: teamsMessages, preview: teamsPreview });
