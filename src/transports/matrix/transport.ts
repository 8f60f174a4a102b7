import { join } from 'node:path';
import { ClientEvent, HttpApiEvent, SyncState, type MatrixClient } from 'matrix-js-sdk';
import { KeptJson } from '../../kernel/store/kept-json.ts';
import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { greetAs, roundTrip } from '../serving/reach.ts';
import { ButtonMemory } from './buttons.ts';
import { matrixClient } from './client.ts';
import { matrixDownloads } from './downloads.ts';
import { MatrixEvents } from './events.ts';
import { MATRIX } from './id.ts';
import type { MatrixIdentity } from './incoming.ts';
import { KeptSync } from './kept-sync.ts';
import { matrixMembers, MatrixNames } from './members.ts';
import { MatrixOutbound } from './outbound.ts';
import { checkMatrix, reachMatrix } from './reach.ts';
import { matrixSettings, requireMatrix, TOKEN_HOW } from './settings.ts';

/** The SDK's long poll: the homeserver answers at once when something comes, so only a stop waits for it (it is aborted then). */
const POLL_MS = 30_000;

/**
 * Matrix, through matrix-js-sdk: its /sync loop for what happens in the bot's rooms (resumed
 * from the token kept in the data directory), the Client-Server API for what the bridge sends,
 * buttons as reactions. Its settings are MATRIX_HOMESERVER_URL and MATRIX_ACCESS_TOKEN, the bot
 * account's; people are `matrix:@alice:example.org`.
 */
const matrixTransport: TransportKind = {
  id: MATRIX,
  check: (sources) => checkMatrix(matrixSettings(sources)),
  create(sources): Transport {
    const settings = requireMatrix(matrixSettings(sources));
    const buttons = new ButtonMemory(new KeptJson(join(sources.dataDir, 'matrix-buttons.json')));
    let me: MatrixIdentity | undefined;
    let client: MatrixClient | undefined;
    let kept: KeptSync | undefined;
    let stopped = false;
    let ended: () => void = () => {};
    const until = new Promise<void>((resolve) => (ended = resolve));
    const where = new URL(settings.homeserverUrl).host;
    const theClient = () => client!;
    const out = new MatrixOutbound(theClient, buttons);
    return {
      id: MATRIX,
      secrets: [settings.accessToken],
      out,
      members: matrixMembers(theClient),
      downloads: matrixDownloads(settings),
      roundTripMs: roundTrip(() => theClient().getVersions()),
      async connect(log) {
        me = await reachMatrix(settings, where, log);
        kept = await KeptSync.open(sources.dataDir);
        await buttons.load();
        client = matrixClient(settings, me.userId, kept, log);
      },
      async serve(host, log) {
        if (stopped) return;
        const c = theClient();
        c.on(HttpApiEvent.SessionLoggedOut, () => log.error(`Matrix: the homeserver logged the bot out (M_UNKNOWN_TOKEN): ${TOKEN_HOW}, and start again`));
        c.on(ClientEvent.Sync, (state, previous, data) => {
          if (state === SyncState.Error && previous !== SyncState.Error)
            log.warn(`Matrix (${where}): syncing failed (${data?.error?.message ?? 'no answer'}); trying again until the homeserver answers`);
          if (state === SyncState.Syncing && (previous === SyncState.Error || previous === SyncState.Reconnecting))
            log.info(`Matrix (${where}) answers again; syncing`);
        });
        const events = new MatrixEvents({ client: c, me: me!, host, kept: kept!, buttons, names: new MatrixNames(theClient), out, log });
        const synced = events.start();
        await c.startClient({ initialSyncLimit: 1, threadSupport: false, lazyLoadMembers: false, disablePresence: true, pollTimeout: POLL_MS });
        await Promise.race([synced, until]);
        // Stopped while it connected: it takes nothing more from the homeserver.
        if (stopped) c.stopClient();
        else await until;
      },
      async stop() {
        stopped = true;
        client?.stopClient();
        await kept?.save();
        await buttons.flush();
        ended();
      },
      greet: greetAs(() => `as ${me!.userId} on Matrix (${where})`),
    };
  },
};

export default matrixTransport;
