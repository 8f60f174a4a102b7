import { join } from 'node:path';
import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { KeptStrings } from '../serving/kept-strings.ts';
import { greetAs } from '../serving/reach.ts';
import { teamsAdapter, teamsLogin } from './auth.ts';
import { teamsBot } from './bot.ts';
import { TeamsConnector } from './connector.ts';
import { teamsDownloads } from './downloads.ts';
import { MessagesEndpoint } from './endpoint.ts';
import { TEAMS } from './id.ts';
import { TeamsOutbound } from './outbound.ts';
import { checkTeams, reachTeams } from './reach.ts';
import { requireTeams, teamsSettings } from './settings.ts';

/**
 * Microsoft Teams, through the Bot Framework SDK (botbuilder's CloudAdapter): the Bot
 * Framework posts activities to `POST /api/messages` on the bridge's web server, and the
 * bridge answers through each conversation's Bot Connector with the app's token.
 */
const teams: TransportKind = {
  id: TEAMS,
  check: (sources) => checkTeams(teamsSettings(sources)),
  async create(sources): Promise<Transport> {
    const settings = requireTeams(teamsSettings(sources));
    const login = teamsLogin(settings);
    const adapter = teamsAdapter(settings, login);
    // Where each conversation's Bot Connector is (its service URL, by the chat's id): an activity
    // names it, and the bridge answers there, also later and after a restart.
    const conversations = await KeptStrings.open(join(sources.dataDir, 'teams-conversations.json'), 5000);
    const connector = new TeamsConnector(adapter, settings.appId, settings.tenantId, conversations);
    const out = new TeamsOutbound(connector);
    const endpoint = new MessagesEndpoint(adapter, settings.tenantId);
    let ended: () => void = () => {};
    let stopped = false;
    return {
      id: TEAMS,
      secrets: [settings.appPassword],
      out,
      members: connector.members(),
      downloads: teamsDownloads(),
      routes: endpoint.routes,
      async connect(log) {
        await reachTeams(login, log);
      },
      async serve(host, log) {
        if (stopped) return;
        endpoint.log = log;
        adapter.onTurnError = async (_context, error) => log.error({ err: error }, 'Teams: handling an activity failed');
        endpoint.turn = teamsBot({ host, conversations, out, log });
        await new Promise<void>((resolve) => (ended = resolve));
      },
      async stop() {
        stopped = true;
        endpoint.turn = undefined;
        ended();
      },
      greet: greetAs(() => `as Teams app ${settings.appId}`),
    };
  },
};

export default teams;
