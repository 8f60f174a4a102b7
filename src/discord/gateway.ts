import {
  Client,
  Events,
  GatewayIntentBits,
  MessageFlags,
  Partials,
  Routes,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Interaction,
} from 'discord.js';
import { chatKey, type ChatRef, type ChatUser } from '../ports/transport.ts';
import type { GatewayParts } from './gateway-parts.ts';
import { applicationCommands, commandText, TEXT_OPTION } from './commands.ts';
import { discordChat } from './id.ts';
import { catchUp } from './catch-up.ts';
import { onMessage } from './on-message.ts';
import type { DiscordIdentity } from './reach.ts';
import { Serial } from './serial.ts';
import { TransportRefusedError } from '../ports/chat-transport.ts';
import { MESSAGE_CONTENT_HOW } from './invite.ts';
import { DiscordTokenRefusedError, TOKEN_HOW } from './reach.ts';
import type { DiscordSettings } from './settings.ts';

/**
 * A discord.js client for the gateway, pointed at the configured REST root (the gateway's
 * address comes from its /gateway/bot). It asks for the Message Content intent only when the
 * application has it: asking without it would close the connection (4014).
 */
export function createClient({ apiUrl }: Pick<DiscordSettings, 'apiUrl'>, identity: DiscordIdentity): Client {
  return new Client({
    intents: intentsFor(identity),
    // DMs arrive on channels the client has never seen.
    partials: [Partials.Channel],
    rest: { api: apiUrl },
    allowedMentions: { parse: [] },
  });
}

export function intentsFor(identity: DiscordIdentity): GatewayIntentBits[] {
  return [
    GatewayIntentBits.Guilds,
    GatewayIntentBits.GuildMessages,
    GatewayIntentBits.DirectMessages,
    ...(identity.messageContent ? [GatewayIntentBits.MessageContent] : []),
  ];
}

/**
 * Serves the host from Discord's gateway: messages (a chat's in order, chats side by side),
 * application commands (deferred at once, within Discord's 3 s, then answered by the bridge's
 * reply) and button presses (acknowledged at once, answered by a message only the presser
 * sees). Resolves once logged in and ready.
 */
export async function startGateway(parts: GatewayParts): Promise<{ closed: Promise<never> }> {
  const { client, identity, host, log } = parts;
  const serial = new Serial();
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
    return new DiscordTokenRefusedError(`Discord refused DISCORD_BOT_TOKEN on its gateway (4004 Authentication failed): ${TOKEN_HOW}, and start again.`);
  if (code === 4014)
    return new TransportRefusedError(
      `Discord closed the gateway (4014 Disallowed intents): the Message Content intent was turned off; ${MESSAGE_CONTENT_HOW}.`,
    );
  return new TransportRefusedError(`Discord closed the gateway for good (${code}): the bridge takes nothing from Discord until it starts again.`);
}

/** Where an interaction happened: its channel, or its thread and the thread's channel. */
function addressOfInteraction(interaction: ChatInputCommandInteraction | ButtonInteraction): { address: ChatRef; private: boolean; title?: string } {
  const channel = interaction.channel;
  if (channel?.isThread() && channel.parentId) return { address: discordChat(channel.parentId, channel.id), private: false, title: channel.name };
  const dm = !interaction.inGuild();
  return { address: discordChat(interaction.channelId), private: dm, ...(channel && 'name' in channel && channel.name ? { title: `#${channel.name}` } : {}) };
}

function userOf(interaction: Interaction): ChatUser {
  return { id: interaction.user.id, name: interaction.user.globalName ?? interaction.user.username };
}

async function onCommand(parts: GatewayParts, serial: Serial, interaction: ChatInputCommandInteraction): Promise<void> {
  const { host, log, interactions } = parts;
  // First of all: Discord forgets an interaction not answered within 3 s.
  try {
    await interaction.deferReply();
  } catch (error) {
    log.warn({ err: error, chat: interaction.channelId }, `the command /${interaction.commandName} came too late to answer (Discord allows 3 s)`);
    return;
  }
  interactions.deferred(interaction.id, interaction.token);
  const { address, private: dm, title } = addressOfInteraction(interaction);
  const user = userOf(interaction);
  if (dm) parts.dmPeople.saw(address.chat, user.id);
  const text = commandText(interaction.commandName, interaction.options.getString(TEXT_OPTION));
  await serial.run(`message:${interaction.channelId}`, () =>
    host.handleMessage({ address, user, text, messageId: interaction.id, ...(dm ? { private: true } : {}), ...(title ? { chatTitle: title } : {}) }),
  );
  // The command said nothing in reply (or its answer went elsewhere): the deferred reply shows what was run.
  if (interactions.claim(interaction.id))
    await interaction
      .editReply({ content: `\`${text.replace(/`/g, "'")}\``.slice(0, 2000), allowedMentions: { parse: [] } })
      .catch((error: unknown) => log.warn({ err: error, chat: chatKey(address) }, 'the command reply could not be settled'));
}

async function onPress(parts: GatewayParts, interaction: ButtonInteraction): Promise<void> {
  try {
    await interaction.deferUpdate();
  } catch (error) {
    parts.log.warn({ err: error, chat: interaction.channelId }, 'a button press came too late to answer (Discord allows 3 s)');
    return;
  }
  const { address } = addressOfInteraction(interaction);
  const answer = await parts.host.handleButton({ address, user: userOf(interaction), data: interaction.customId, messageId: interaction.message.id });
  if (answer.text) await interaction.followUp({ content: answer.text.slice(0, 2000), flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } });
}
