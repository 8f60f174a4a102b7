import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatAppTwin } from '../support/chat-apps/chat-app.ts';
import { teamsWorld } from '../support/chat-apps/teams.ts';
import type { ChatAppWorld } from '../support/chat-apps/world.ts';
import type { FakeTeams, TeamsPerson } from '../support/fake-teams/index.ts';

// A file past what a Teams message holds (18 KB inline): in a personal chat Teams asks the
// person first (a file consent card); allowed, the bot puts it in their OneDrive through the
// upload URL Teams gives and shows its file card. In a channel no bot can share one so large,
// and the chat is told in a sentence.

const CONSENT = 'application/vnd.microsoft.teams.card.file.consent';

describe('a file past what a Teams message holds', () => {
  let teams: FakeTeams;
  let app: ChatAppTwin;
  let world: ChatAppWorld;
  let ada: TeamsPerson;

  beforeAll(async () => {
    ({ teams, app, world } = await teamsWorld());
    ada = [...teams.people.values()].find((person) => person.name === 'Ada')!;
  }, 60_000);
  afterAll(() => world?.stop());

  /** The file in the chat's directory, and the consent card `/file get` answers it with in the personal chat. */
  const offered = async (name: string, bytes: Buffer) => {
    await writeFile(join(world.workdir, name), bytes);
    const chat = app.direct();
    await chat.command('file', `get ${name}`);
    const card = await teams.waitFor(() => teams.botMessages(chat.id).find((m) => m.attachments.some((a) => a.contentType === CONSENT && a.name === name)));
    return { chat, card };
  };

  it('is offered in a personal chat; allowed, it goes to the OneDrive and shows as its file card', async () => {
    const bytes = randomBytes(200 * 1024);
    const { chat, card } = await offered('big.bin', bytes);
    expect(card.attachments[0]!.content).toMatchObject({ description: 'big.bin', sizeInBytes: bytes.length });
    expect(await teams.answerFileConsent(card, ada, 'accept')).toBe(200);
    const shown = await teams.waitFor(async () => (await chat.shown()).flatMap((m) => m.files).find((f) => f.name === 'big.bin' && f.bytes.length));
    expect(shown.bytes.equals(bytes)).toBe(true);
  });

  it('declined, is said not sent; answered again once taken, says to ask again', async () => {
    const { chat, card } = await offered('other.bin', randomBytes(40 * 1024));
    expect(await teams.answerFileConsent(card, ada, 'decline')).toBe(200);
    await chat.waitFor(/^📎 other\.bin was not sent: declined\./);
    expect(await teams.answerFileConsent(card, ada, 'accept')).toBe(200);
    await chat.waitFor(/^📎 That file is no longer at hand/);
    expect((await chat.shown()).flatMap((m) => m.files).some((f) => f.name === 'other.bin')).toBe(false);
  });

  it('in a channel, where a bot can share none so large, is refused in a sentence', async () => {
    await writeFile(join(world.workdir, 'wide.bin'), randomBytes(40 * 1024));
    const channel = app.group(1);
    await channel.command('file', 'get wide.bin');
    expect((await channel.waitFor(/wide\.bin/)).text).toMatch(/this chat takes files of at most/);
    expect(teams.messages.some((m) => m.attachments.some((a) => a.contentType === CONSENT && a.name === 'wide.bin'))).toBe(false);
  });
});
