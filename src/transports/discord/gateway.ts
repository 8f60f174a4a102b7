import { Client, Events, GatewayIntentBits, Partials, Routes, type Interaction } from 'discord.js';
import type { GatewayParts } from './gateway-parts.ts';
import { applicationCommands } from './commands.ts';
import { catchUp } from './catch-up.ts';
import { onCommand, onPress } from './on-interaction.ts';
import { onMessage } from './incoming.ts';
import { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';
import { TransportRefusedError } from '../../kernel/ports/transport.ts';
import { MESSAGE_CONTENT_HOW } from './invite.ts';
import { TOKEN_HOW, type DiscordIdentity } from './reach.ts';
import type { DiscordSettings } from './settings.ts';

/**
 * A discord.js client for the gateway, pointed at the configured REST root (the gateway's
 * address comes from its /gateway/bot). It asks for the Message Content intent only when the
 * application has it: asking without it would close the connection (4014).
 */
export function createClient({ apiUrl }: Pick<DiscordSettings, 'apiUrl'>, identity: DiscordIdentity): Client {
  return new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.DirectMessages,
      ...(identity.messageContent ? [GatewayIntentBits.MessageContent] : []),
    ],
    // DMs arrive on channels the client has never seen.
    partials: [Partials.Channel],
    rest: { api: apiUrl },
    allowedMentions: { parse: [] },
  });
}

/**
 * Serves the host from Discord's gateway: messages (a chat's in order, chats side by side),
 * application commands (deferred at once, within Discord's 3 s, then answered by the bridge's
 * reply) and button presses (acknowledged at once, answered by a message only the presser
 * sees). Resolves once logged in and ready.
 */
export async function startGateway(parts: GatewayParts): Promise<{ closed: Promise<never> }> {
  const { client, identity, host, log } = parts;
  const serial = new KeyedSerializer();
  const botId = identity.user.id;

  client.on(Events.MessageCreate, (message) => {
    if (message.author.id === botId) return;
    void serial
      .run(`message:${message.channelId}`, () => onMessage(parts, message))
      .catch((error: unknown) => log.error({ err: error, chat: message.channelId }, 'handling a Discord message failed'));
  });
  client.on(Events.InteractionCreate, (interaction: Interaction) => {
    if (interaction.isChatInputCommand())
      void onCommand(parts, serial, interaction).catch((error: unknown) =>
        log.error({ err: error, chat: interaction.channelId }, 'handling a Discord command failed'),
      );
    else if (interaction.isButton())
      void serial
        .run(`press:${interaction.channelId}`, () => onPress(parts, interaction))
        .catch((error: unknown) => log.error({ err: error, chat: interaction.channelId }, 'handling a Discord button failed'));
  });
  client.on(Events.Error, (error) => log.error({ err: error }, 'the Discord client failed'));
  // discord.js reconnects by itself, but not after a close that says the setup is wrong.
  let fail!: (error: Error) => void;
  const closed = new Promise<never>((_, reject) => (fail = reject));
  client.on(Events.ShardDisconnect, (event) => fail(gatewayRefusal(event.code)));
  client.on(Events.ShardReconnecting, () => log.warn('the Discord gateway closed; reconnecting'));
  client.on(Events.ShardResume, () => log.info('the Discord gateway is back (resumed)'));

  client.rest.setToken(parts.token);
  const { body, skipped } = applicationCommands(host.commands);
  if (skipped.length) log.warn(`Discord takes no command named ${skipped.map((name) => `/${name}`).join(', ')}: left out of its command menu`);
  try {
    await client.rest.put(Routes.applicationCommands(identity.application.id), { body });
  } catch (error) {
    log.warn({ err: error }, 'the application commands could not be registered with Discord: typed commands (/status as a message) still work');
  }

  const ready = new Promise<void>((resolve) =>
    client.once(Events.ClientReady, () => {
      // Ahead of anything the gateway brings now: each channel's missed messages wait for nothing newer.
      catchUp(parts, serial);
      resolve();
    }),
  );
  await Promise.race([client.login(parts.token).then(() => ready), closed]);
  log.info(`connected to Discord's gateway: ${client.guilds.cache.size} server(s)${identity.messageContent ? '' : ', without the Message Content intent'}`);
  return { closed };
}

/** Why Discord closed the gateway for good, and what to do about it. */
function gatewayRefusal(code: number): TransportRefusedError {
  if (code === 4004)
    return new TransportRefusedError(`Discord refused DISCORD_BOT_TOKEN on its gateway (4004 Authentication failed): ${TOKEN_HOW}, and start again.`);
  if (code === 4014)
    return new TransportRefusedError(
      `Discord closed the gateway (4014 Disallowed intents): the Message Content intent was turned off; ${MESSAGE_CONTENT_HOW}.`,
    );
  return new TransportRefusedError(`Discord closed the gateway for good (${code}): the bridge takes nothing from Discord until it starts again.`);
}
