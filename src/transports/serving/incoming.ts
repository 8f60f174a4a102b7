import { saveDownload } from '../../engine/files/save-download.ts';
import { megabytes } from '../../engine/files/sizes.ts';
import { attachmentKind, type Attachment, type Downloads, type IncomingMessage } from '../../kernel/ports/chat.ts';
import type { TransportHost } from '../../kernel/ports/transport.ts';

// What the chat apps share in reading what people send: their command words, their files, their ids.

/** The bridge's command names, lower-cased: what a word people write is matched against. */
export function commandNames(host: Pick<TransportHost, 'commands'>): ReadonlySet<string> {
  return new Set(host.commands.map((c) => c.name.toLowerCase()));
}

/**
 * `status now` (or `/status now`) → `/status now` when `status` is a command; undefined
 * otherwise. `bang`: `!status` is one too (for an app whose clients take `/…` for themselves).
 */
export function asCommand(text: string, commands: ReadonlySet<string>, bang = false): string | undefined {
  const match = (bang ? /^[/!]?([A-Za-z][\w-]*)(\s[\s\S]*)?$/ : /^\/?([A-Za-z][\w-]*)(\s[\s\S]*)?$/).exec(text.trim());
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  return commands.has(name) ? `/${name}${match[2] ?? ''}` : undefined;
}

/**
 * A use of an app's `slash` command (`/bridge status`): the bridge's command it names (nothing
 * written: help), or the answer its writer alone is given when the word is no command.
 */
export function slashCommand(written: string, slash: string, commands: ReadonlySet<string>): { command: string } | { unknown: string } {
  const text = written.trim() || 'help';
  const command = asCommand(text, commands);
  const unknown = `\`${text.split(/\s/)[0]}\` is no command of the bridge: \`${slash} help\` lists them; to ask the agent, mention the bot or write to it directly.`;
  return command ? { command } : { unknown };
}

/**
 * The text the core gets where people mention the bot: after a `leading` mention, a first word
 * that names a command becomes `/command rest…` (`@bot status` → `/status`), any other is a
 * prompt; elsewhere each `mention` becomes `dropped`, and a `/command` typed as text (where the
 * app took it for no slash command of its own) is a command too. `plain`: the app's markup as
 * a reader sees it.
 */
export function mentionedText(
  raw: string,
  { leading, mention, dropped = '' }: { leading: RegExp; mention: RegExp; dropped?: string },
  commands: ReadonlySet<string>,
  plain = (text: string) => text,
): string {
  if (leading.test(raw)) {
    const rest = plain(raw.replace(leading, '').replace(mention, dropped).trim());
    return asCommand(rest, commands) ?? rest;
  }
  const text = plain(
    raw
      .replace(mention, dropped)
      .replace(/[ \t]{2,}/g, ' ')
      .trim(),
  );
  return text.startsWith('/') ? (asCommand(text.slice(1), commands) ?? text) : text;
}

/** What a message replies to, for the core: its text, its files and whose it is; nothing when it says nothing and carries no file. */
export function replyOf(text: string, attachments: Attachment[], from?: { name: string; id: string }): Pick<IncomingMessage, 'replyTo'> {
  if (!text && !attachments.length) return {};
  return { replyTo: { text, ...(from ? { from: from.name, fromId: from.id } : {}), ...(attachments.length ? { attachments } : {}) } };
}

/** A file a message carries, to fetch by `id` (the app's: a URL, a file id), of the kind its MIME type says where the app says no more. */
export function fileAttachment(id: string, file: { name?: string; mime?: string; size?: number; kind?: Attachment['kind'] }): Attachment {
  const { name, mime, size, kind = attachmentKind(mime) } = file;
  return { kind, id, ...(name ? { fileName: name } : {}), ...(mime ? { mimeType: mime } : {}), size };
}

/**
 * Files people send, each asked for the app's way (`fetchOne`: its own address, its token) and
 * streamed to disk, cut off past `maxBytes`, with a sentence that says `whose` limit that is.
 */
export function appDownloads(
  maxBytes: number,
  whose: string,
  fetchOne: (attachment: Attachment, signal: AbortSignal | undefined, tooBig: string) => Promise<Response>,
): Downloads {
  const tooBig = `it is over the ${megabytes(maxBytes)} ${whose}`;
  return {
    maxBytes,
    download: async (attachment, path, signal) => saveDownload(await fetchOne(attachment, signal, tooBig), path, { limit: maxBytes, tooBig, signal }),
  };
}

/** Whether `id` (a post's, an activity's) comes for the first time, and not again: remembered among the newest `max` in `seen`. */
export function isFirst(seen: Set<string>, id: string, max: number): boolean {
  if (seen.has(id)) return false;
  seen.add(id);
  if (seen.size > max) seen.delete(seen.values().next().value!);
  return true;
}

/** A person's id on `transport` (`app:U024BE7LH` → `U024BE7LH`) when it has the app's `shape`; a person of another transport has none. */
export function personIdOn(transport: string, person: string, shape: RegExp): string | undefined {
  const [on, id = ''] = person.split(/:(.*)/s);
  return on === transport && shape.test(id) ? id : undefined;
}
