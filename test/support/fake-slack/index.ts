export { FakeSlack, type FakeSlackOptions, type ResponseUrlPost } from './fake-slack.ts';
export type { Envelope, EnvelopeType, SocketModeOptions } from './socket-mode.ts';
export type { SlackCall } from './web-api.ts';
export type { SlackChannel, SlackUser, StoredMessage, EphemeralMessage } from './workspace.ts';
export { LIMITS } from './blocks.ts';
