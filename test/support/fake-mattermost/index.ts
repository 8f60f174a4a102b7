export { FakeMattermost, actionsOf } from './fake-mattermost.ts';
export { MAX_POST_RUNES } from './model.ts';
export type { Post, User, Channel } from './model.ts';
