import type { Client } from 'discord.js';
import type { Log } from '../../kernel/log/logger.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';
import type { Outbound } from '../../kernel/ports/chat.ts';
import type { KeptStrings } from '../serving/kept-strings.ts';
import type { PendingInteractions } from './interactions.ts';
import type { DmPeople } from './members.ts';
import type { MessageContentNotice } from './message-content.ts';
import type { DiscordIdentity } from './reach.ts';

/** What serving Discord's gateway takes: the client, who the bot is, the bridge, and what the transport keeps. */
export interface GatewayParts {
  client: Client;
  token: string;
  identity: DiscordIdentity;
  host: TransportHost;
  out: Outbound;
  interactions: PendingInteractions;
  dmPeople: DmPeople;
  notice: MessageContentNotice;
  /** Each channel's read mark (read-marks.ts). */
  marks: KeptStrings;
  log: Log;
}
