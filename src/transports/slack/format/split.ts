import { fitWithin } from '../../serving/message-fit.ts';
import { SLACK_CAPABILITIES } from '../capabilities.ts';
import { renderMrkdwn } from './mrkdwn.ts';

/**
 * How text fits Slack's messages: each within a section block's limit as mrkdwn (what a message
 * with buttons shows its text in) and as plain text, so a message can gain buttons later without
 * growing past it; a long answer's opening, for the comment of the snippet that carries it
 * whole, within 700.
 */
export const SLACK_FIT = fitWithin(SLACK_CAPABILITIES.messageChars, renderMrkdwn, 700);
