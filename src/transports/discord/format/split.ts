import { renderMarkdown } from '../../../work/presentation/format/markdown.ts';
import { fitWithin } from '../../serving/message-fit.ts';
import { DISCORD_CAPABILITIES } from '../capabilities.ts';

/** How text fits a Discord message: each within 2,000 characters as its Markdown is sent. */
export const DISCORD_FIT = fitWithin(DISCORD_CAPABILITIES.messageChars, renderMarkdown, 1500);
