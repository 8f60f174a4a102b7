import { fitWithin } from '../../serving/message-fit.ts';
import { MATRIX_CAPABILITIES } from '../capabilities.ts';
import { renderHtml } from './html.ts';

/** How text fits a Matrix message: its HTML (the longer of its two renderings) within the message's characters. Files carry no caption to preview in. */
export const MATRIX_FIT = fitWithin(MATRIX_CAPABILITIES.messageChars, renderHtml);
