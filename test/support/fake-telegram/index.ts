export { FakeTelegram, type FakeTelegramOptions } from './fake-telegram.ts';
export type { FakeDocument, FakeMessage } from './message-view.ts';
export type { RecordedCall, RecordedFile, ErrorEnvelope } from './call-log.ts';
export type { CallbackAnswer } from './bot-state.ts';
export type { Fault, FaultOptions } from './faults.ts';
export type { ChatType, PressButtonOptions, SendTextOptions, UserOptions } from './user-actions.ts';
export type { SendFileOptions } from './user-files.ts';
export type { FileKind, MessageContent, MessageVersion } from './world.ts';
export type { ParseMode } from './formatting/format-text.ts';
