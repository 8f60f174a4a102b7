import { describe, expect, it } from 'vitest';
import { asWritten, commandsAsWritten } from '../../src/kernel/ports/capabilities.ts';
import { bold, code, lines, link, plain, plainText, rich } from '../../src/kernel/rich/index.ts';

const COMMANDS = new Set(['status', 'help', 'allow', 'new']);
const matrix = { commandPrefix: '!' };
const slack = { commandPrefix: '/bridge ' };

describe("the bridge's commands in a chat's texts, as its app's people write them", () => {
  it('writes each command the app’s way, and leaves every other slash as it is', () => {
    const text = plain('Send /status, (/help allow) or “/new”; the file is in /tmp/status and see https://x.org/help');
    expect(plainText(commandsAsWritten(text, matrix, COMMANDS))).toBe(
      'Send !status, (!help allow) or “!new”; the file is in /tmp/status and see https://x.org/help',
    );
    expect(plainText(commandsAsWritten(plain('/unknown stays, /status goes'), slack, COMMANDS))).toBe('/unknown stays, /bridge status goes');
  });

  it('keeps every style, link and cut around what it rewrites', () => {
    const text = lines([bold('Stuck? /status'), rich`run ${code('/help allow')} or ${link('the docs', 'https://x.org')}`, plain('then /new')]);
    const written = commandsAsWritten(text, matrix, COMMANDS);
    expect(plainText(written)).toBe('Stuck? !status\nrun !help allow or the docs (https://x.org)\nthen !new');
    expect(written.runs.map((run) => [run.text, run.style.bold, run.style.code])).toEqual([
      ['Stuck? !status', true, false],
      ['\nrun ', false, false],
      ['!help allow', false, true],
      [' or ', false, false],
      ['the docs', false, false],
      ['\nthen !new', false, false],
    ]);
    // The same places to cut, moved by what came before them: between words and between lines.
    const at = (rich: typeof text) =>
      rich.cuts.map((cut) => [rich.text.slice(0, cut.at).split(/\s/).length, rich.text.slice(cut.at, cut.at + cut.skip), cut.rank]);
    expect(at(written)).toEqual(at(text));
  });

  it('changes nothing where the app takes /commands, or with no commands given', () => {
    const text = plain('Send /status');
    expect(commandsAsWritten(text, {}, COMMANDS)).toBe(text);
    expect(commandsAsWritten(text, matrix, new Set())).toBe(text);
    expect(asWritten('Send /status or /tmp', matrix, COMMANDS)).toBe('Send !status or /tmp');
    expect(asWritten('Send /status or /tmp', matrix)).toBe('Send !status or !tmp');
  });
});
