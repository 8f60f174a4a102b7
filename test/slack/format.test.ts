import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/work/presentation/format/index.ts';
import { bold, code, concat, italic, link, plain, pre } from '../../src/kernel/rich/index.ts';
import { plainText } from '../../src/kernel/rich/plain.ts';
import { renderMrkdwn } from '../../src/transports/slack/format/mrkdwn.ts';
import { SLACK_FIT } from '../../src/transports/slack/capabilities.ts';
import { asCommand } from '../../src/transports/serving/incoming.ts';
import { coreText, plainFromSlack } from '../../src/transports/slack/incoming-text.ts';
import { slackMessage } from '../../src/transports/slack/presenter.ts';

describe('rich text as Slack mrkdwn', () => {
  it('writes each style its own way, markers hugging the words, and escapes what Slack reads as markup', () => {
    expect(renderMrkdwn(concat([bold('Status '), plain('a < b & c'), plain(' '), italic('soon'), plain(' '), code('npm test')]))).toBe(
      '*Status* a &lt; b &amp; c _soon_ `npm test`',
    );
    expect(renderMrkdwn(link('the docs', 'https://example.com/a|b'))).toBe('<https://example.com/a%7Cb|the docs>');
    expect(renderMrkdwn(concat([plain('run:\n'), pre('npm test\nnpm run lint')]))).toBe('run:\n```\nnpm test\nnpm run lint\n```');
  });

  it('quotes line by line, and keeps words Slack would cut (a backtick in code, a bar in a link) as they are', () => {
    expect(renderMrkdwn(parseMarkdown('> one\n> two'))).toBe('> one\n> two');
    expect(renderMrkdwn(code('a`b'))).toBe('a`b');
    expect(renderMrkdwn(link('a|b', 'https://x.test'))).toBe('a|b (https://x.test)');
  });

  it('cuts a long answer into messages within a section block, none losing a word', () => {
    const long = parseMarkdown(Array.from({ length: 60 }, (_, i) => `**Paragraph ${i}.** ${'word '.repeat(30)}`).join('\n\n'));
    const messages = SLACK_FIT.split(long);
    expect(messages.length).toBeGreaterThan(2);
    for (const message of messages) expect(renderMrkdwn(message).length).toBeLessThanOrEqual(3000);
    expect(messages.map((m) => plainText(m)).join('\n\n')).toBe(plainText(long));
    expect(renderMrkdwn(SLACK_FIT.preview(long)!).length).toBeLessThanOrEqual(700);
  });

  it('puts buttons in actions blocks under a section, each value its data and each action_id unique', () => {
    const message = slackMessage(plain('Allow Bash?'), [
      [
        { text: '✅ Allow', data: 'ap:1:y' },
        { text: '⛔ Deny', data: 'ap:1:n' },
      ],
      [{ text: 'Docs', data: '', opens: { url: 'https://x.test' } }],
    ]);
    expect(message.blocks).toEqual([
      { type: 'section', text: { type: 'mrkdwn', text: 'Allow Bash?' } },
      {
        type: 'actions',
        block_id: 'row-0',
        elements: [
          { type: 'button', action_id: 'b-0-0', text: { type: 'plain_text', text: '✅ Allow', emoji: true }, value: 'ap:1:y' },
          { type: 'button', action_id: 'b-0-1', text: { type: 'plain_text', text: '⛔ Deny', emoji: true }, value: 'ap:1:n' },
        ],
      },
      {
        type: 'actions',
        block_id: 'row-1',
        elements: [{ type: 'button', action_id: 'b-1-0', text: { type: 'plain_text', text: 'Docs', emoji: true }, url: 'https://x.test' }],
      },
    ]);
    expect(slackMessage(plain('no buttons')).blocks).toEqual([]);
  });
});

describe('what people write in Slack, as the core reads it', () => {
  const commands = new Set(['status', 'spawn', 'help']);
  const BOT = 'U0BOT';

  it('@bot <command> … becomes /command …; any other first word is a prompt', () => {
    expect(coreText('<@U0BOT> spawn "fix the build"', BOT, commands)).toBe('/spawn "fix the build"');
    expect(coreText('<@U0BOT>: Status', BOT, commands)).toBe('/status');
    expect(coreText('<@U0BOT> status of the build?', BOT, commands)).toBe('/status of the build?');
    expect(coreText('<@U0BOT> explain the failing test', BOT, commands)).toBe('explain the failing test');
    expect(coreText('hey <@U0BOT> look at this', BOT, commands)).toBe('hey look at this');
    expect(coreText('/status', BOT, commands)).toBe('/status');
    expect(coreText('/etc/hosts is wrong', BOT, commands)).toBe('/etc/hosts is wrong');
  });

  it("undoes Slack's markup: mentions, channels, links and escapes", () => {
    expect(plainFromSlack('ask <@U123|ada> in <#C1|general>: <https://x.test/a|the page> &lt;b&gt; &amp; <https://y.test>')).toBe(
      'ask @ada in #general: the page (https://x.test/a) <b> & https://y.test',
    );
    expect(asCommand('frobnicate', commands)).toBeUndefined();
  });
});
