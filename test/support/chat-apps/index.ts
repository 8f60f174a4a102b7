import type { ChatAppTwin } from './chat-app.ts';
import { discordTwin } from './discord.ts';
import { matrixTwin } from './matrix.ts';
import { mattermostTwin } from './mattermost.ts';
import { slackTwin } from './slack.ts';
import { teamsTwin } from './teams.ts';
import { telegramTwin } from './telegram.ts';

/** Every chat app's twin, by transport id: what the transport contract suite runs against. */
export const CHAT_APP_TWINS: Record<string, () => Promise<ChatAppTwin>> = {
  telegram: telegramTwin,
  slack: slackTwin,
  discord: discordTwin,
  mattermost: mattermostTwin,
  teams: teamsTwin,
  matrix: matrixTwin,
};
