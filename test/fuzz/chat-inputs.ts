import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import type { MessageEntity } from 'grammy/types';

/**
 * What people may send a bot, as fast-check arbitraries: text of every kind, the bridge's
 * commands with hostile arguments, entities that make no sense, files with dangerous names,
 * replies to messages that are gone, presses with made-up data, edits. Who sends it and where
 * are slots (a sender, a group, a topic); the test maps them to real ids for each run.
 */

export type Place = { kind: 'private' } | { kind: 'group'; group: number } | { kind: 'forum'; group: number; topic: number };

/** Senders and chats of one run. */
export const SENDERS = 32;
const GROUPS = 30;
const FORUMS = 8;

export interface Sender {
  /** Strangers are not in BRIDGE_ALLOWED_USERS. */
  readonly stranger: boolean;
  readonly slot: number;
}

/** Which earlier message of the chat a reply or a press is on (modulo their number), or one that exists nowhere. */
export type Target = { kind: 'earlier'; index: number; fromBot: boolean } | { kind: 'missing'; id: number };

export type ChatInput =
  | { kind: 'text'; text: string; entities: MessageEntity[]; replyTo: Target | undefined }
  | { kind: 'file'; file: 'document' | 'photo' | 'voice'; fileName: string | undefined; caption: string | undefined; bytes: Uint8Array }
  | { kind: 'press'; data: string; on: Target }
  | { kind: 'edit'; index: number; text: string };

export interface Update {
  readonly from: Sender;
  readonly place: Place;
  readonly input: ChatInput;
}

const MANIFEST = JSON.parse(readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8')) as { commands: { name: string }[] };
export const COMMANDS = MANIFEST.commands.map((c) => c.name);

/** Words of the fake CLI's script (test/fake-cli/fake-agent.mjs): random text must not make it hang or crash on purpose. */
const DIRECTIVES = /hang|sleep|tools|pace|huge|garbage|crash|signal|silent|ignore-term|grandchild|fail|say|long|write|commit|dirty|wait-for|mcp-check/g;

/** What a leaked bug looks like in a reply; kept out of what people type, so any found came from the bridge. */
export const TELLTALES = /undefined|NaN|\[object Object\]|TypeError|RangeError|SyntaxError|Error:| {4}at /;

/** Text as typed: no fake-CLI directive, no telltale, at most Telegram's 4096 UTF-16 units (whole code points). */
export function typed(text: string): string {
  let clean = text.replace(DIRECTIVES, (word) => word.toUpperCase());
  while (TELLTALES.test(clean)) clean = clean.replace(new RegExp(TELLTALES.source, 'g'), '?');
  let out = '';
  for (const point of clean) {
    if (out.length + point.length > 4096) break;
    out += point;
  }
  return out;
}

const tricky = fc.constantFrom(
  '\u200b',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u202e',
  '\u2066',
  '\ufeff',
  '\u00a0',
  '\u3000',
  '\u2800',
  '\u0000',
  '\t',
  '\n',
  '\r\n',
  ' ',
  'مرحبا بالعالم',
  'שלום',
  '👨‍👩‍👧‍👦',
  '🏳️‍🌈',
  '🇺🇦',
  'e\u0301',
  '𝕏𝕐',
  'Ω≈ç√',
  '你好',
  'Z̵̧̛a̶l̷g̴o',
  '<b>',
  '</i>',
  '<a href="x">',
  '&amp;',
  '&lt;',
  '`',
  '```',
  '*',
  '_',
  '__',
  '~',
  '||',
  '[x](javascript:alert(1))',
  '\\',
  '#',
  '>',
  '{}',
  '${x}',
  '%s',
  '%n',
);

const words = fc.array(fc.oneof(tricky, fc.string({ maxLength: 12 })), { minLength: 1, maxLength: 30 }).map((parts) => parts.join(''));

/** Any text a person could send: unicode, RTL, zero-width, emoji, markup look-alikes, very long, whitespace only. */
export const anyText: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 4, arbitrary: words },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 300 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }) },
    { weight: 1, arbitrary: fc.array(fc.constantFrom(' ', '\n', '\t', '\u00a0', '\u3000', '\u2003'), { minLength: 1, maxLength: 20 }).map((s) => s.join('')) },
    {
      weight: 1,
      arbitrary: fc.tuple(words, fc.integer({ min: 3000, max: 4096 })).map(([w, n]) => (w || 'x').repeat(Math.ceil(n / (w.length || 1))).slice(0, n)),
    },
  )
  .map(typed);

/** Arguments as a hurried or hostile person types them. */
const argument = fc.oneof(
  fc.constantFrom(
    '--timeout',
    '-1',
    '--timeout -1',
    '--timeout 99999999999999999999',
    '--timeout 1e309',
    '--timeout 0x10',
    '--timeout ""',
    '--cli',
    '--cli unknown',
    '--cli ../../bin/sh',
    '--model',
    '--model ""',
    '--label',
    '--agent',
    '--agent ../../x',
    '--worktree',
    '--allow',
    '--allow "Bash(*)"',
    '--deny',
    '--ask',
    '--auto-approve',
    '--',
    '-',
    '-p',
    '--help',
    '--version',
    '"',
    "'",
    '"unbalanced',
    "it's",
    '""',
    '"a" "b"',
    '\\"',
    '“smart quotes”',
    '../../etc/passwd',
    '/etc/shadow',
    '..',
    '.',
    '~',
    '~root',
    '$HOME',
    '`id`',
    '$(id)',
    'a\u0000b',
    '\u0000',
    '/',
    '//',
    './.bridge',
    'all',
    'list',
    'stop',
    'log',
    'info',
    'send',
    'revoke',
    'show',
    'enable',
    'disable',
    'new',
    'get',
    '#1',
    '#0',
    '#-1',
    '#99999999999999',
    'safe',
    'ask',
    'bypass',
    'default',
    'on',
    'off',
    'claude',
    'codex',
    'droid',
    '{"strategy":"dag","steps":[]}',
    '{"strategy":"dag","steps":[{"id":"a"}]}',
    '{',
    '[]',
    'null',
    'a <- b: c',
    'a <- a: loop',
    '9007199254740993',
    '-0',
    'Infinity',
    '1.5',
    '0',
    '4294967296',
  ),
  fc.integer().map(String),
  fc.double().map(String),
  words.map(typed),
);

/** A command of the manifest (or not), maybe aimed at this or another bot, with random arguments. */
export const commandText: fc.Arbitrary<string> = fc
  .tuple(
    fc.oneof(
      { weight: 9, arbitrary: fc.constantFrom(...COMMANDS) },
      { weight: 1, arbitrary: fc.constantFrom('unknown', 'SPAWN', 'Help', 'x'.repeat(32), 'start_') },
    ),
    fc.constantFrom('', '', '', '@bridge_test_bot', '@BRIDGE_TEST_BOT', '@other_bot'),
    fc.array(argument, { maxLength: 6 }),
    fc.constantFrom(' ', '\n', '  '),
  )
  .map(([name, bot, args, gap]) => typed(`/${name}${bot}${args.length ? gap : ''}${args.join(' ')}`));

const ENTITY_TYPES = [
  'bot_command',
  'mention',
  'hashtag',
  'url',
  'bold',
  'italic',
  'code',
  'pre',
  'spoiler',
  'text_link',
  'custom_emoji',
  'blockquote',
] as const;

/** Entities as a modified client sends them: at odd offsets, past the end, overlapping, negative. */
export const entities: fc.Arbitrary<MessageEntity[]> = fc.array(
  fc.record({ type: fc.constantFrom(...ENTITY_TYPES), offset: fc.integer({ min: -3, max: 5000 }), length: fc.integer({ min: -1, max: 5000 }) }).map(
    (e) =>
      ({
        ...e,
        ...(e.type === 'text_link' && { url: 'javascript:alert(1)' }),
        ...(e.type === 'pre' && { language: '"><script>' }),
        ...(e.type === 'custom_emoji' && { custom_emoji_id: 'x' }),
      }) as MessageEntity,
  ),
  { maxLength: 4 },
);

const target: fc.Arbitrary<Target> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('earlier' as const), index: fc.nat(50), fromBot: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('missing' as const), id: fc.integer({ min: 1, max: 2 ** 31 - 1 }) }) },
);

/** File names a sender controls: traversal, separators, very long, unicode, reserved, empty. */
export const fileName: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constantFrom(
    undefined,
    '',
    '.',
    '..',
    '../../etc/passwd',
    '..\\..\\boot.ini',
    'a/b/c.txt',
    '/etc/passwd',
    '.bridge',
    '.bridge/inbox/x',
    '.git/config',
    'CON',
    'nul.txt',
    ' ',
    '-rf',
    '--help',
    'a\u0000b.txt',
    '\u202egnp.exe',
    'x'.repeat(300) + '.txt',
    '🔥'.repeat(120),
    'name with spaces.md',
    'résumé.pdf',
    'файл.txt',
    '名前.txt',
    '.hidden',
    'trailing.',
    'semi;colon|pipe&.sh',
    '$(id).txt',
    '`id`.txt',
    'new\nline.txt',
  ),
  fc.string({ unit: 'binary', maxLength: 80 }).map(typed),
);

/** Callback data (Telegram allows 1–64 bytes): the bridge's own kinds with bad payloads, and noise. */
const callbackData = fc
  .oneof(
    fc.constantFrom(
      'stop',
      'stop:',
      'stop:nope',
      'rs',
      'rs:',
      'rs:../../x',
      'sa',
      'sa:',
      'sa:nope',
      'ap',
      'ap:',
      'ap:1',
      'ap:x:allow',
      'ap:x:deny',
      ':',
      '::',
      'x',
    ),
    fc.tuple(fc.constantFrom('stop', 'rs', 'sa', 'ap', 'zz'), fc.string({ unit: 'binary', maxLength: 40 })).map(([kind, rest]) => `${kind}:${rest}`),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
  )
  .map((data) => {
    let out = '';
    for (const point of typed(data)) if (Buffer.byteLength(out + point) <= 64) out += point;
    return out || 'x';
  });

export const chatInput: fc.Arbitrary<ChatInput> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('text' as const), text: anyText, entities, replyTo: fc.option(target, { nil: undefined, freq: 3 }) }) },
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant('text' as const), text: commandText, entities, replyTo: fc.option(target, { nil: undefined, freq: 3 }) }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('file' as const),
      file: fc.constantFrom('document' as const, 'document' as const, 'photo' as const, 'voice' as const),
      fileName,
      caption: fc.option(fc.oneof(anyText, commandText), { nil: undefined }),
      bytes: fc.uint8Array({ minLength: 1, maxLength: 64 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('press' as const), data: callbackData, on: target }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), index: fc.nat(20), text: anyText }) },
);

/** Many chats, few messages each: Telegram lets a bot send one message a second to a person, twenty a minute to a group. */
const place: fc.Arbitrary<Place> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: 'private' as const }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('group' as const), group: fc.nat(GROUPS - 1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('forum' as const), group: fc.nat(FORUMS - 1), topic: fc.nat(2) }) },
);

export const update: fc.Arbitrary<Update> = fc.record({
  from: fc.record({ stranger: fc.nat(3).map((n) => n === 0), slot: fc.nat(SENDERS - 1) }),
  place,
  input: chatInput,
});
