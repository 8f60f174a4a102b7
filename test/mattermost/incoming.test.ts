import { describe, expect, it } from 'vitest';
import { SignedButtons } from '../../src/transports/mattermost/buttons.ts';
import { addressedToAnother, coreText, mentions } from '../../src/transports/mattermost/incoming.ts';
import { mattermostChat } from '../../src/transports/mattermost/id.ts';

const COMMANDS = new Set(['status', 'spawn', 'help']);

describe('a Mattermost post, as the core reads it', () => {
  it('turns `@bot word` into a command when the word is one, and leaves a prompt a prompt', () => {
    expect(coreText('@bridgebot status', 'bridgebot', COMMANDS)).toBe('/status');
    expect(coreText('@BridgeBot: spawn "fix it"', 'bridgebot', COMMANDS)).toBe('/spawn "fix it"');
    expect(coreText('@bridgebot why is the build red?', 'bridgebot', COMMANDS)).toBe('why is the build red?');
    expect(coreText('hey @bridgebot look at this', 'bridgebot', COMMANDS)).toBe('hey look at this');
    expect(coreText('/status', 'bridgebot', COMMANDS)).toBe('/status');
  });

  it('knows a mention of the bot from one of someone else, or of a longer name', () => {
    expect(mentions('ask @bridgebot', 'bridgebot')).toBe(true);
    expect(mentions('ask @bridgebot2', 'bridgebot')).toBe(false);
    expect(mentions('mail me at me@bridgebot.org', 'bridgebot')).toBe(false);
    expect(addressedToAnother('@ana can you look', 'bridgebot')).toBe(true);
    expect(addressedToAnother('@bridgebot go on', 'bridgebot')).toBe(false);
  });
});

describe('the signed context of a Mattermost button', () => {
  const chat = mattermostChat('c'.repeat(26), 'r'.repeat(26));
  const buttons = new SignedButtons('t'.repeat(26), 'http://bridge/mattermost/actions');

  it('verifies for the channel it was made for, and for nothing changed', () => {
    const context = buttons.sign(chat, 'ok:1');
    expect(buttons.verify(context, chat.chat)).toEqual(context);
    expect(buttons.verify(context, 'x'.repeat(26))).toBeUndefined();
    expect(buttons.verify({ ...context, r: 'z'.repeat(26) }, chat.chat)).toBeUndefined();
    expect(buttons.verify({ ...context, d: 'no:1' }, chat.chat)).toBeUndefined();
    expect(new SignedButtons('u'.repeat(26), undefined).verify(context, chat.chat)).toBeUndefined();
  });
});
