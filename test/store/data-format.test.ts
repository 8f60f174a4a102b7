import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DATA_FORMAT, migrateDataDir } from '../../src/kernel/store/data-format.ts';
import { ConfigError, EX_CONFIG } from '../../src/kernel/errors/config-error.ts';
import { silentLog } from '../support/silent-log.ts';
import { chatKey } from '../../src/kernel/ports/chat.ts';
import { openApp } from '../support/app-world.ts';
import { fakeCliWorld, type FakeCliWorld } from '../support/fake-cli.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';
import { startBridgeProcess } from '../support/bridge-process.ts';
import { chat } from '../support/chats.ts';

const FIXTURE = new URL('../fixtures/data-format-1/', import.meta.url);
/** As `main.ts` says it: format 1's chat 0 was the console's, every other chat Telegram's. */
const LEGACY = { legacyTransport: (chatId: number) => (chatId === 0 ? 'console' : 'telegram') };
const STORES = ['chats.json', 'subagents.json', 'orchestrations.json', 'usage.json', 'subagents-archive.jsonl'];

let world: FakeCliWorld;
let dataDir: string;

/** The format-1 data directory, its paths pointing into this test's directories. */
async function layOutFormat1(): Promise<void> {
  await cp(FIXTURE, dataDir, { recursive: true });
  for (const name of STORES) {
    const text = await readFile(join(dataDir, name), 'utf8');
    await writeFile(join(dataDir, name), text.replaceAll('@DATA_DIR@', dataDir).replaceAll('@WORKDIR@', world.dir));
  }
}

const json = async (name: string) => JSON.parse(await readFile(join(dataDir, name), 'utf8')) as Record<string, Record<string, Record<string, unknown>>>;

beforeEach(async () => {
  world = await fakeCliWorld();
  dataDir = join(world.dir, 'data');
  await layOutFormat1();
});
afterEach(() => world.cleanup());

describe('the data directory format', () => {
  it('migrates a format-1 directory on start, keeping the files as they were, and the bridge carries on from it', async () => {
    const before = Object.fromEntries(await Promise.all(STORES.map(async (name) => [name, await readFile(join(dataDir, name), 'utf8')])));
    const { from, backup } = await migrateDataDir(dataDir, LEGACY, silentLog());
    expect(from).toBe(1);
    expect(JSON.parse(await readFile(join(dataDir, 'format.json'), 'utf8'))).toEqual({ format: DATA_FORMAT });
    for (const name of STORES) expect(await readFile(join(backup!, name), 'utf8'), name).toBe(before[name]);

    const chats = (await json('chats.json')).chats!;
    expect(Object.keys(chats).sort()).toEqual(['console:0', 'telegram:-1001234:7']);
    expect(chats['telegram:-1001234:7']).toMatchObject({ chat: { transport: 'telegram', chat: '-1001234', thread: '7' }, pending: [{ messageId: '55' }] });
    expect(chats['telegram:-1001234:7']).not.toHaveProperty('chatId');
    const runs = (await json('subagents.json')).runs!;
    expect(runs.TopicRun01).toMatchObject({ requesterKey: 'telegram:-1001234:7', requester: { kind: 'agent', chatKey: 'telegram:-1001234:7' } });
    expect(runs.ApiRun0001).toMatchObject({ chat: { transport: 'none', chat: 'none' }, requesterKey: 'none:none' });
    expect(runs.HAt5krxrrq).toMatchObject({ chat: { transport: 'console', chat: '0' }, requester: { kind: 'user', userId: '42' } });
    expect(Object.keys((await json('usage.json')).chats!).sort()).toEqual(['console:0', 'telegram:-1001234:7']);
    const archive = (await readFile(join(dataDir, 'subagents-archive.jsonl'), 'utf8')).split('\n');
    expect(JSON.parse(archive[0]!)).toMatchObject({ runId: 'Archived01', requesterKey: 'console:0' });
    expect(archive[1]).toBe('{"runId": "TornLine'); // a crash's torn line, left for the reader to skip

    // The bridge reads it all: the topic's session, its lost message, its runs and the console's plan.
    const out = new RecordingOutbound();
    const app = await openApp(world, out, { dataDir, workdir: world.dir });
    try {
      expect(app.bot.chats.get(chat(-1001234, 7)).record).toMatchObject({ cliSessionId: 'topic-session-id', sessions: [{ turns: 2 }] });
      expect(out.textsTo(-1001234).join('\n')).toMatch(/The bridge restarted before it finished this message:\n• the message in flight/);
      expect(app.subagents.registry.find(chatKey(chat(-1001234, 7)), '#1')?.runId).toBe('TopicRun01');
      expect(app.subagents.registry.find('console:0', '#1')?.runId).toBe('HAt5krxrrq');
      expect(app.orchestrator.forChat('console:0').map((o) => o.status)).toEqual(['completed']);
    } finally {
      await app.shutdown();
    }
  });

  it('leaves a directory of its own format as it is, and starts a new one in it', async () => {
    await migrateDataDir(dataDir, LEGACY, silentLog());
    const migrated = await readFile(join(dataDir, 'chats.json'), 'utf8');
    expect(await migrateDataDir(dataDir, LEGACY, silentLog())).toEqual({ from: DATA_FORMAT });
    expect(await readFile(join(dataDir, 'chats.json'), 'utf8')).toBe(migrated);
    expect(await readdir(join(dataDir, 'backups'))).toHaveLength(1);
    const fresh = join(world.dir, 'fresh');
    await mkdir(fresh);
    expect(await migrateDataDir(fresh, LEGACY, silentLog())).toEqual({ from: DATA_FORMAT });
    expect(JSON.parse(await readFile(join(fresh, 'format.json'), 'utf8'))).toEqual({ format: DATA_FORMAT });
  });

  it('refuses data of a newer format with one line: the bridge stops before it reads or writes anything', async () => {
    await writeFile(join(dataDir, 'format.json'), JSON.stringify({ format: DATA_FORMAT + 1 }));
    const chats = await readFile(join(dataDir, 'chats.json'), 'utf8');
    await expect(migrateDataDir(dataDir, LEGACY, silentLog())).rejects.toThrow(ConfigError);
    const bridge = startBridgeProcess({ BRIDGE_DATA_DIR: dataDir, BRIDGE_WORKDIR: world.dir, BRIDGE_ALLOWED_USERS: '42', ...world.env }, ['--console'], '');
    expect(await bridge.exited).toEqual({ code: EX_CONFIG, signal: undefined });
    expect(bridge.stderr().trim().split('\n')).toEqual([
      `jsonl-bridge: ${dataDir} holds data of format ${DATA_FORMAT + 1}, written by a newer jsonl-bridge; this one reads format ${DATA_FORMAT} and older: run the newer bridge, or give this one another BRIDGE_DATA_DIR`,
    ]);
    expect(await readFile(join(dataDir, 'chats.json'), 'utf8')).toBe(chats);
  });
});
