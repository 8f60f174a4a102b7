export { FakeDiscord, ApplicationFlag, type FakeDiscordOptions } from './fake-discord.ts';
export type { RecordedCall } from './call-log.ts';
export type { InteractionRecord } from './interactions.ts';
export type { MessageRecord } from './world.ts';
export type { SendOptions, UserFile } from './user-actions.ts';
export { Intent } from './gateway.ts';
export { readable } from './readable.ts';
