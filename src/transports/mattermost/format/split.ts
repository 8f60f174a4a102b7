import { renderMarkdown } from '../../../work/presentation/format/markdown.ts';
import { fitWithin } from '../../serving/message-fit.ts';
import { MATTERMOST_CAPABILITIES } from '../capabilities.ts';

/** How text fits a Mattermost post: its Markdown within the post's 16,383 characters. */
export const MATTERMOST_FIT = fitWithin(MATTERMOST_CAPABILITIES.messageChars, renderMarkdown, 3000);
