import { MessageFlags, type ButtonInteraction, type ChatInputCommandInteraction, type Interaction } from 'discord.js';
import { chatKey, type ChatRef, type ChatUser } from '../../kernel/ports/chat.ts';
import { TEXT_OPTION } from './commands.ts';
import type { GatewayParts } from './gateway-parts.ts';
import { discordChat } from './id.ts';
import type { KeyedSerializer } from '../../kernel/concurrency/keyed-serializer.ts';

// Application commands and button presses: each acknowledged at once (Discord forgets an
// interaction not answered within 3 s), then handed to the bridge.

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

export async function onCommand(parts: GatewayParts, serial: KeyedSerializer, interaction: ChatInputCommandInteraction): Promise<void> {
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
  if (dm) parts.dmPeople.set(address.chat, user.id);
  // As the core reads it: `/name rest…`.
  const rest = interaction.options.getString(TEXT_OPTION)?.trim();
  const text = rest ? `/${interaction.commandName} ${rest}` : `/${interaction.commandName}`;
  await serial.run(`message:${interaction.channelId}`, () =>
    host.handleMessage({ address, user, text, messageId: interaction.id, ...(dm ? { private: true } : {}), ...(title ? { chatTitle: title } : {}) }),
  );
  // The command said nothing in reply (or its answer went elsewhere): the deferred reply shows what was run.
  if (interactions.claim(interaction.id))
    await interaction
      .editReply({ content: `\`${text.replace(/`/g, "'")}\``.slice(0, 2000), allowedMentions: { parse: [] } })
      .catch((error: unknown) => log.warn({ err: error, chat: chatKey(address) }, 'the command reply could not be settled'));
}

export async function onPress(parts: GatewayParts, interaction: ButtonInteraction): Promise<void> {
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
