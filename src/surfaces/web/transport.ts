import { join } from 'node:path';
import type { Transport, TransportKind } from '../../kernel/ports/transport.ts';
import { WEB, webMembers } from './chat/web-chat.ts';
import { WebOutbound } from './chat/web-outbound.ts';

/**
 * The web pages' own chat (BRIDGE_WEB_ADDR), served beside a chat app whose people log in to
 * it: each person's chat keeps its messages under the data directory, and the bridge's web
 * server takes what they write. Its settings are the web server's (checked with the bridge's).
 */
export const webTransport: TransportKind = {
  id: WEB,
  check: async () => [],
  async create({ dataDir }): Promise<Transport> {
    const out = await WebOutbound.open(join(dataDir, 'web'));
    let stop!: () => void;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    return {
      id: WEB,
      secrets: [],
      out,
      members: webMembers,
      async connect() {},
      // The web server (started with the bridge's listeners) feeds its messages; this waits for the end.
      serve: () => stopped,
      async stop() {
        stop();
        await out.flush();
      },
      greet() {},
    };
  },
};

export default webTransport;
