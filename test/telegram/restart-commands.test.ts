import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SubagentRunRecord } from '../../src/work/subagents/record.ts';
import { OWNER, ownerIn, shownText, startTelegramWorld, type TelegramWorld } from '../support/telegram-world.ts';

// A restart loses no work a person asked for: a command that starts work, taken before a kill
// and not yet carried out, is carried out after it exactly once, found by the message that asked.
let world: TelegramWorld | undefined;
afterEach(async () => {
  await world?.stop();
  world = undefined;
});

const CHAT = -320;
const { say, waitText } = ownerIn(() => world!, CHAT, 30_000);
const texts = (chatId = CHAT) => world!.telegram.botMessages(chatId).map(shownText);
const chatsFile = () => readFile(join(world!.dataDir, 'chats.json'), 'utf8');

/** The runs on disk (the live file: these are all recent). */
async function runs(): Promise<SubagentRunRecord[]> {
  const text = await readFile(join(world!.dataDir, 'subagents.json'), 'utf8').catch(() => '{"runs":{}}');
  return Object.values((JSON.parse(text) as { runs: Record<string, SubagentRunRecord> }).runs);
}

/** The records of one of the bridge's stores (`orchestrations.json`, `schedules.json`), as on disk. */
async function records(file: string, field: string): Promise<{ fromMessage?: string }[]> {
  const text = await readFile(join(world!.dataDir, file), 'utf8').catch(() => `{"${field}":{}}`);
  return Object.values((JSON.parse(text) as Record<string, Record<string, { fromMessage?: string }>>)[field] ?? {});
}

/**
 * A kill right after the command made its work, before it was noted done: the bridge is killed,
 * and the chat's record holds the command as begun again, as that kill would have left it.
 */
async function killedBeforeDone(messageId: number, text: string): Promise<void> {
  world!.bridge.kill('SIGKILL');
  await world!.bridge.exited;
  const data = JSON.parse(await chatsFile()) as { chats: Record<string, { commandsCut?: unknown[] }> };
  const record = data.chats[`telegram:${CHAT}`]!;
  const message = { address: { transport: 'telegram', chat: String(CHAT) }, user: { id: String(OWNER), name: 'Ada' }, messageId: String(messageId), text };
  record.commandsCut = [...(record.commandsCut ?? []), { messageId: String(messageId), text, message }];
  await writeFile(join(world!.dataDir, 'chats.json'), JSON.stringify(data));
  await world!.restart();
}

const announced = (label: string) => (text: string) => new RegExp(`^[✅❌⏹⌛] #\\d+ ${label} `).test(text);
const CUT = /restarted while it was doing/;

describe('a command a kill cut short', () => {
  it('is carried out after the restart, once, when the kill landed between taking a /spawn and making its run', async () => {
    world = await startTelegramWorld();
    const log = world.telegram.sendFile({
      chatId: CHAT,
      userId: OWNER,
      chatType: 'group',
      firstName: 'Ada',
      kind: 'document',
      bytes: Buffer.from('x'),
      fileName: 'a.log',
    });
    await expect.poll(chatsFile, { timeout: 20_000 }).toContain('a.log');
    // /spawn fetches the replied-to file again, and that fetch hangs: the command is taken, its run not yet made.
    world.telegram.failNext('download', { hang: true });
    const spawn = world.telegram.sendText({
      chatId: CHAT,
      userId: OWNER,
      firstName: 'Ada',
      text: '/spawn --label cut "read the log"',
      replyTo: log.message_id,
    });
    await expect.poll(chatsFile, { timeout: 20_000 }).toContain('/spawn --label cut');
    expect(await runs()).toEqual([]);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    world.telegram.clearFaults();
    await world.restart();
    const started = await waitText(/^🚀 #1 started: cut/);
    expect(started.replyToMessageId).toBe(spawn.message_id);
    await waitText(/^✅ #1 cut /);
    // The replayed /spawn had the replied-to file again, and made one run; nobody was told it was cut.
    const made = await runs();
    expect(made.map((run) => run.label)).toEqual(['cut']);
    expect(made[0]!.context).toContain('a.log');
    // A restart now (its announcement noted as sent) finds the run by its message: nothing is made again.
    await expect.poll(async () => (await runs())[0]?.delivery.chat, { timeout: 20_000 }).toBe('sent');
    await world.restart('SIGKILL');
    world.telegram.sendText({ chatId: CHAT, userId: OWNER, firstName: 'Ada', text: 'say:after' });
    await waitText(/^after/);
    expect(await runs()).toHaveLength(1);
    expect(texts().filter(announced('cut'))).toHaveLength(1);
    expect(texts().filter((text) => CUT.test(text))).toEqual([]);
  });

  it('is carried out once each after a SIGKILL while 40 /spawns arrive at once in 20 groups', async () => {
    world = await startTelegramWorld();
    const groups = Array.from({ length: 20 }, (_, i) => -4000 - i);
    const labels: { chatId: number; label: string }[] = [];
    for (const chatId of groups) for (const n of [1, 2]) labels.push({ chatId, label: `kb${-chatId}${n}` });
    for (const { chatId, label } of labels)
      world.telegram.sendText({ chatId, userId: OWNER, chatType: 'group', firstName: 'Ada', text: `/spawn --label ${label} "note ${label}"` });
    // The kill lands while the commands are being taken: at least one noted as begun.
    await expect.poll(chatsFile, { timeout: 30_000, interval: 20 }).toMatch(/"commandsCut":\s*\[\s*\{/);
    world.bridge.kill('SIGKILL');
    await world.bridge.exited;
    await world.restart();
    // Settled: each announced, or (the old way) named as cut short.
    const settled = () => labels.every(({ chatId, label }) => texts(chatId).some((text) => announced(label)(text) || (CUT.test(text) && text.includes(label))));
    await world.telegram.waitFor(() => settled() || undefined, 120_000);
    for (const { chatId, label } of labels) {
      expect(texts(chatId).filter(announced(label)), label).toHaveLength(1);
      expect(
        texts(chatId).filter((text) => CUT.test(text)),
        label,
      ).toEqual([]);
    }
    const made = (await runs()).map((run) => run.label).sort();
    expect(made).toEqual(labels.map(({ label }) => label).sort());
  }, 240_000);

  it('is found by its message where it made its work before the kill: a /spawn, /orchestrate or /every is not carried out twice, nor named', async () => {
    world = await startTelegramWorld();
    const spawn = say('/spawn --label once "note once"');
    await waitText(/^✅ #1 once /);
    const plan = say('/orchestrate a: note plan');
    await expect.poll(async () => (await records('orchestrations.json', 'orchestrations')).length, { timeout: 20_000 }).toBe(1);
    const every = say('/every 2h check the build');
    await waitText(/^⏰ Scheduled /);
    await expect.poll(async () => (await runs())[0]?.delivery.chat, { timeout: 20_000 }).toBe('sent');
    await killedBeforeDone(spawn.message_id, '/spawn --label once "note once"');
    await killedBeforeDone(plan.message_id, '/orchestrate a: note plan');
    await killedBeforeDone(every.message_id, '/every 2h check the build');
    say('say:after');
    await waitText(/^after/);
    expect(await runs()).toHaveLength(2); // the /spawn's, and the plan's step
    expect(await records('orchestrations.json', 'orchestrations')).toHaveLength(1);
    expect(await records('schedules.json', 'schedules')).toHaveLength(1);
    expect(texts().filter((text) => CUT.test(text))).toEqual([]);
    expect(texts().filter((text) => /^⏰ Scheduled /.test(text))).toHaveLength(1);
    expect(JSON.parse(await chatsFile()).chats[`telegram:${CHAT}`].commandsCut).toEqual([]);
  }, 120_000);

  it('says plainly what is known of a /subagents send it cannot know the end of: handed to the run, perhaps not read', async () => {
    world = await startTelegramWorld();
    say('/spawn --label long "hang"');
    await waitText(/^🚀 #1 started: long/);
    const send = say('/subagents send 1 also this');
    await waitText(/^✉️ #1 long/);
    await killedBeforeDone(send.message_id, '/subagents send 1 also this');
    const told = await waitText(CUT);
    expect(told.text).toMatch(
      /^⚠️ The bridge restarted while it was doing \/subagents send 1 also this: the message had been handed to #1 long, which may not have read it before the restart\./,
    );
    expect(told.replyToMessageId).toBe(send.message_id);
    expect(texts().filter((text) => /^✉️ #1 long/.test(text))).toHaveLength(1);
  });
});
