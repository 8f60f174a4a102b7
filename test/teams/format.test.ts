import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { concat, link, plain, plainText } from '../../src/kernel/rich/index.ts';
import { teamsMessage } from '../../src/transports/teams/cards.ts';
import { TEAMS_CAPABILITIES } from '../../src/transports/teams/capabilities.ts';
import { renderCardMarkdown } from '../../src/transports/teams/format/card-markdown.ts';
import { renderTeamsHtml } from '../../src/transports/teams/format/html.ts';
import { TEAMS_FIT } from '../../src/transports/teams/capabilities.ts';
import { parseMarkdown } from '../../src/work/presentation/format/parse.ts';
import type { ChatAppTwin } from '../support/chat-apps/chat-app.ts';
import { teamsWorld } from '../support/chat-apps/teams.ts';
import type { ChatAppWorld } from '../support/chat-apps/world.ts';
import { shownCard, type BotMessage } from '../support/fake-teams/conversations.ts';
import { readCardMarkdown, readTeamsHtml, type FakeTeams } from '../support/fake-teams/index.ts';

// An agent's Markdown as Teams shows it: a message's HTML (textFormat xml), a card's own
// Markdown where it has buttons, each message within the limit as sent and well-formed.

const ANSWER = [
  '**bold** and `npm test` <script> & co',
  '> quoted',
  'See [the docs](https://x.example/a?b=1&c=2).',
  '```ts\nconst a = 1 < 2;\n```',
  'done',
].join('\n\n');

/** A person's message as Teams delivers it to a bot: its HTML. */
const asTeamsWrites = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('\n', '<br>');

describe('rich text as Teams shows it', () => {
  it('writes a message in the HTML Teams documents for bots, escaping what the agent wrote', () => {
    expect(renderTeamsHtml(parseMarkdown(ANSWER))).toBe(
      '<strong>bold</strong> and <code>npm test</code> &lt;script&gt; &amp; co<br><br><blockquote>quoted</blockquote><br><br>' +
        'See <a href="https://x.example/a?b=1&amp;c=2">the docs</a>.<br><br><pre>const a = 1 &lt; 2;</pre><br><br>done',
    );
  });

  it("writes a card's text block in the card's Markdown: code as its text, what it would misread escaped, a line break as a blank line", () => {
    const card = renderCardMarkdown(concat([parseMarkdown('**Run** `rm -rf build_*` in '), link('the dir', 'https://x.example/a (b)'), plain('?\nsure')]));
    expect(card).toBe('**Run** rm -rf build\\_\\* in [the dir](https://x.example/a%20%28b%29)?\n\nsure');
    expect(readCardMarkdown(card)).toBe('Run rm -rf build_* in the dir?\nsure');
    const sent = teamsMessage(parseMarkdown('Allow `a_b`?'), [[{ text: '✅ Allow', data: 'y' }]]);
    expect(shownCard(sent.attachments![0]!).text).toBe('Allow a_b?');
  });

  it('cuts a long answer into messages each within the limit as sent, a code block closed and opened again', () => {
    const code = Array.from({ length: 300 }, (_, i) => `line ${i}: if (a < b && c) return "x";`).join('\n');
    const long = parseMarkdown(`**Start.**\n\n\`\`\`ts\n${code}\n\`\`\`\n\n_end_`);
    const messages = TEAMS_FIT.split(long);
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages) {
      const html = renderTeamsHtml(message);
      expect(html.length).toBeLessThanOrEqual(TEAMS_CAPABILITIES.messageChars);
      expect(renderCardMarkdown(message).length).toBeLessThanOrEqual(TEAMS_CAPABILITIES.messageChars);
      expect(readTeamsHtml(html).problems).toEqual([]);
    }
    expect(messages.slice(1, -1).every((m) => /^<pre>[\s\S]*<\/pre>$/.test(renderTeamsHtml(m)))).toBe(true);
    const words = (text: string) => text.split(/\s+/).join(' ');
    expect(words(messages.map((m) => plainText(m)).join('\n'))).toBe(words(plainText(long)));
  });
});

describe('an answer in Teams, through the twin', () => {
  let teams: FakeTeams;
  let app: ChatAppTwin;
  let world: ChatAppWorld;

  beforeAll(async () => void ({ teams, app, world } = await teamsWorld()), 60_000);
  afterAll(() => world?.stop());

  const sent = (chat: string, id: string): BotMessage => teams.botMessages(chat).find((m) => m.id === id)!;

  it("arrives as Teams HTML in the message that showed the turn's progress", async () => {
    const chat = app.direct();
    await chat.say(asTeamsWrites(`tools:2 pace:300\n\n${ANSWER}`));
    const shown = await chat.waitFor(/^echo: tools:2/);
    const message = sent(chat.id, shown.id);
    expect(message.edits).toBeGreaterThan(0);
    expect(message.textFormat).toBe('xml');
    expect(message.text).toContain(
      '<strong>bold</strong> and <code>npm test</code> &lt;script&gt; &amp; co<br><br><blockquote>quoted</blockquote><br><br>' +
        'See <a href="https://x.example/a?b=1&amp;c=2">the docs</a>.<br><br><pre>const a = 1 &lt; 2;</pre><br><br>done',
    );
    expect(readTeamsHtml(message.text).problems).toEqual([]);
    expect(shown.text).toContain('bold and npm test <script> & co\n\nquoted\n\nSee the docs.\n\nconst a = 1 < 2;\n\ndone');
  });

  it('splits a long answer into well-formed messages within the limit', async () => {
    const chat = app.direct();
    const code = Array.from({ length: 160 }, (_, i) => `row ${i}: a < b && "c"`).join('\n');
    await chat.say(asTeamsWrites(`Here:\n\n\`\`\`\n${code}\n\`\`\`\n\nthe end`));
    await chat.waitFor(/the end/, 30_000);
    const messages = teams.botMessages(chat.id).filter((m) => /row \d+:/.test(readTeamsHtml(m.text).text));
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      expect(message.textFormat).toBe('xml');
      expect(message.text.length).toBeLessThanOrEqual(TEAMS_CAPABILITIES.messageChars);
      expect(readTeamsHtml(message.text).problems).toEqual([]);
      expect(message.text).toMatch(/<pre>[\s\S]*<\/pre>/);
    }
    const rows = messages.flatMap((m) => readTeamsHtml(m.text).text.match(/row \d+: a < b && "c"/g) ?? []);
    expect(rows).toHaveLength(160);
  });

  it("shows a tool's command in a question card as the agent wrote it", async () => {
    const chat = app.direct();
    await chat.command('permissions', 'ask');
    await chat.waitFor(/Permissions: ask/);
    await chat.say('bash:ls+_tmp_+[a](b)+*x*');
    const question = await chat.waitFor(/Bash/);
    expect(question.buttons.some((label) => /Allow/.test(label))).toBe(true);
    expect(question.text).toContain('ls _tmp_ [a](b) *x*');
  });
});
