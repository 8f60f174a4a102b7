import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { membersThrough, DmPeople } from '../../src/transports/discord/members.ts';
import { discordRest } from '../../src/transports/discord/rest.ts';
import { discordChat } from '../../src/transports/discord/id.ts';
import { FakeDiscord } from '../support/fake-discord/index.ts';

// Who is in a Discord chat, asked of the fake Discord through discord.js's REST client.
const ADA = '1300000000000000111';
const EVE = '1300000000000000999';

let fake: FakeDiscord;
beforeEach(async () => {
  fake = await FakeDiscord.start();
  fake.addMember(ADA, 'Ada');
});
afterEach(() => fake.close());

const members = (people = new DmPeople()) => membersThrough(discordRest({ token: fake.token, apiUrl: fake.apiUrl }, { retries: 0 }), people);

describe('Discord members', () => {
  it("counts a server's members in its channels and threads, and no one else", async () => {
    const thread = fake.startThread({ user: ADA, name: 'work' });
    await expect(members().isMember(discordChat(fake.general), `discord:${ADA}`)).resolves.toBe(true);
    await expect(members().isMember(discordChat(fake.general, thread), `discord:${ADA}`)).resolves.toBe(true);
    await expect(members().isMember(discordChat(fake.general), `discord:${EVE}`)).resolves.toBe(false);
    fake.removeMember(ADA);
    await expect(members().isMember(discordChat(fake.general), `discord:${ADA}`)).resolves.toBe(false);
  });

  it("leaves out a server's member who may not see the channel, as Discord's overwrites decide", async () => {
    const secret = fake.addChannel('leads');
    fake.addMember(EVE, 'Eve');
    fake.hideChannelFrom(secret, EVE);
    await expect(members().isMember(discordChat(secret), `discord:${EVE}`)).resolves.toBe(false);
    await expect(members().isMember(discordChat(secret), `discord:${ADA}`)).resolves.toBe(true);
    await expect(members().isMember(discordChat(fake.general), `discord:${EVE}`)).resolves.toBe(true);
  });

  it('gives a DM to its person alone, learnt from Discord when their messages did not say', async () => {
    const dm = fake.dmOf(ADA);
    const people = new DmPeople();
    await expect(members(people).isMember(discordChat(dm), `discord:${ADA}`)).resolves.toBe(true);
    await expect(members(people).isMember(discordChat(dm), `discord:${EVE}`)).resolves.toBe(false);
    const asked = fake.callsTo('GET /channels/:id').length;
    await members(people).isMember(discordChat(dm), `discord:${ADA}`);
    expect(fake.callsTo('GET /channels/:id')).toHaveLength(asked);
  });

  it('says no for an unknown or hidden channel and for people of other transports, and cannot tell when Discord is down', async () => {
    await expect(members().isMember(discordChat('1300000000000000404'), `discord:${ADA}`)).resolves.toBe(false);
    await expect(members().isMember(discordChat(fake.addChannel('secret', { hidden: true })), `discord:${ADA}`)).resolves.toBe(false);
    await expect(members().isMember(discordChat(fake.general), 'telegram:111')).resolves.toBe(false);
    const gone = members();
    await fake.close();
    await expect(gone.isMember(discordChat(fake.general), `discord:${ADA}`)).rejects.toThrow();
    fake = await FakeDiscord.start();
  });
});
