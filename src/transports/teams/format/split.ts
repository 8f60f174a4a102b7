import type { RichText } from '../../../kernel/rich/model.ts';
import type { RangeOptions } from '../../../kernel/rich/range.ts';
import { fitWithin } from '../../serving/message-fit.ts';
import { TEAMS_CAPABILITIES } from '../capabilities.ts';
import { renderCardMarkdown } from './card-markdown.ts';
import { renderTeamsHtml } from './html.ts';

/** A range as Teams is sent it: the longer of its HTML and its card text, as either may carry it (with buttons or without). */
function teamsMarkup(rich: RichText, from: number, to: number, options?: RangeOptions): string {
  const html = renderTeamsHtml(rich, from, to, options);
  const card = renderCardMarkdown(rich, from, to, options);
  return card.length > html.length ? card : html;
}

/** How text fits a Teams message: each within its limit as its markup is sent. */
export const TEAMS_FIT = fitWithin(TEAMS_CAPABILITIES.messageChars, teamsMarkup, 1500);
