import type { Frame } from '../../../kernel/rich/edit.ts';
import type { RichText } from '../../../kernel/rich/model.ts';
import type { MessageFit } from '../../../kernel/ports/capabilities.ts';
import { messagesWithin } from '../../../work/presentation/format/split.ts';
import { MATRIX_CAPABILITIES } from '../capabilities.ts';
import { renderHtml } from './html.ts';

/** How text fits a Matrix message: its HTML (the longer of its two renderings) within the message's characters. Files carry no caption to preview in. */
export const MATRIX_FIT: MessageFit = Object.freeze({
  split: (text: RichText, frame: Frame = {}) => messagesWithin(text, MATRIX_CAPABILITIES.messageChars, renderHtml, frame),
  preview: () => undefined,
});
