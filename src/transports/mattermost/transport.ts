import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { greetAs, roundTrip } from '../serving/reach.ts';
import { SignedButtons } from './buttons.ts';
import { MattermostApi } from './client.ts';
import { mattermostDownloads } from './downloads.ts';
import { MattermostEvents } from './events.ts';
import { MATTERMOST } from './id.ts';
import { mattermostMembers, MattermostNames } from './members.ts';
import { MattermostOutbound } from './outbound.ts';
import { checkMattermost, reachMattermost, type MattermostIdentity } from './reach.ts';
import { ServerPosts } from './server-posts.ts';
import { mattermostSettings, requireMattermost } from './settings.ts';

/**
 * Mattermost, through its own client (@mattermost/client): the WebSocket for posts, REST
 * (API v4) for everything the bridge sends, and interactive buttons whose presses the server
 * posts to the bridge's web server, signed. Its settings are MATTERMOST_URL and
 * MATTERMOST_TOKEN, a bot account's.
 */
const mattermostTransport: TransportKind = {
  id: MATTERMOST,
  check: (sources) => checkMattermost(mattermostSettings(sources)),
  create(sources): Transport {
    const settings = requireMattermost(mattermostSettings(sources));
    const api = new MattermostApi(settings);
    const buttons = new SignedButtons(settings.token, settings.actionsUrl);
    const names = new MattermostNames(new MattermostApi(settings, 1));
    const posts = new ServerPosts(buttons, api, names, settings.commandToken);
    let me: MattermostIdentity | undefined;
    let events: MattermostEvents | undefined;
    let stopped = false;
    let ended: () => void = () => {};
    const until = new Promise<void>((resolve) => (ended = resolve));
    const where = new URL(settings.url).host;
    return {
      id: MATTERMOST,
      secrets: [settings.token, ...(settings.commandToken ? [settings.commandToken] : [])],
      out: new MattermostOutbound(
        api,
        buttons,
        () => me!.id,
        () => me?.username,
      ),
      members: mattermostMembers(new MattermostApi(settings, 0)),
      downloads: mattermostDownloads(settings),
      roundTripMs: roundTrip(() => new MattermostApi(settings, 0).call('get', '/system/ping')),
      // Without the web server there is nowhere for presses to come: the buttons are left out, and the start says so.
      ...(buttons.pressable ? { routes: posts.routes } : {}),
      async connect(log) {
        me = await reachMattermost(new MattermostApi(settings, 0), where, log);
        if (!buttons.pressable) log.warn('Mattermost: no buttons (Allow / Deny, Stop, answers) without the web server: set BRIDGE_WEB_ADDR');
      },
      async serve(host, log) {
        if (stopped) return;
        [posts.host, posts.log] = [host, log];
        events = new MattermostEvents({ api, me: me!, host, names, log });
        await events.start();
        // Stopped while it connected: it takes nothing more from the server.
        if (stopped) events.stop();
        else await until;
      },
      async stop() {
        stopped = true;
        events?.stop();
        ended();
      },
      greet: greetAs(() => `as @${me!.username} on Mattermost (${where})`),
    };
  },
};

export default mattermostTransport;
