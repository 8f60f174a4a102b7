import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChatRef, MessageRef, Outbound, Picture } from '../../src/kernel/ports/chat.ts';
import { plain } from '../../src/kernel/rich/index.ts';
import { RoutedOutbound } from '../../src/transports/serving/routed-outbound.ts';
import { WebOutbound } from '../../src/surfaces/web/chat/web-outbound.ts';
import type { WebMessage } from '../../src/surfaces/web/chat/web-message.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

// Pictures (an orchestration's graph) to the web chat, and through the outbound that serves
// several transports at once.
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'web-pictures-'));
});
// Each chat store's last write lands before its directory goes.
const stores: WebOutbound[] = [];
const opened = async (at: string) => {
  const store = await WebOutbound.open(at);
  stores.push(store);
  return store;
};
afterEach(async () => {
  for (const store of stores.splice(0)) await store.flush();
  await rm(dir, { recursive: true, force: true });
});

const WEB_CHAT: ChatRef = { transport: 'web', chat: 'telegram:42' };
const picture = (n: number): Picture => ({ png: Buffer.from(`png-${n}`), filename: 'orchestration-1.png', caption: plain(`${n}/2 done`) });

describe('pictures in the web chat', () => {
  it('are photo messages whose file is replaced by an edit, the old file removed, the pages told', async () => {
    const out = await opened(dir);
    const told: WebMessage[] = [];
    out.watch((_chat, message) => told.push(structuredClone(message)));
    const ref = await out.sendPicture(WEB_CHAT, picture(1));
    const sent = structuredClone(out.history(WEB_CHAT)[0]);
    expect(sent).toMatchObject({ id: ref.messageId, from: 'bridge', spans: [{ text: '1/2 done' }], file: { name: 'orchestration-1.png', photo: true } });
    expect(await readFile(out.file(sent!.file!.id)!.path, 'utf8')).toBe('png-1');

    await expect(out.editPicture(ref, picture(2))).resolves.toBe(true);
    const [edited] = out.history(WEB_CHAT);
    expect(edited!.file!.id).not.toBe(sent!.file!.id);
    expect(edited).toMatchObject({ spans: [{ text: '2/2 done' }], file: { photo: true }, edited: expect.any(Number) });
    expect(await readFile(out.file(edited!.file!.id)!.path, 'utf8')).toBe('png-2');
    expect(out.file(sent!.file!.id)).toBeUndefined();
    expect(await readdir(join(dir, 'files'))).toHaveLength(1);
    expect(told.map((m) => m.spans[0]!.text)).toEqual(['1/2 done', '2/2 done']);

    await expect(out.editPicture({ ...WEB_CHAT, messageId: 'gone' }, picture(3))).resolves.toBe(false);
  });

  it('are kept across a restart with the rest of the chat; a message leaving the history takes its file along', async () => {
    const out = await opened(dir);
    const ref = await out.sendPicture(WEB_CHAT, picture(1));
    await out.send(WEB_CHAT, plain('after the picture'));
    await out.flush();
    const reopened = await opened(dir);
    const [pictured, text] = reopened.history(WEB_CHAT);
    expect(pictured).toMatchObject({ id: ref.messageId, file: { photo: true } });
    expect(text!.spans[0]!.text).toBe('after the picture');
    expect(await readFile(reopened.file(pictured!.file!.id)!.path, 'utf8')).toBe('png-1');
    for (let n = 0; n < 300; n++) await reopened.send(WEB_CHAT, plain(`line ${n}`));
    await reopened.flush();
    expect(reopened.history(WEB_CHAT)).toHaveLength(300);
    expect(reopened.file(pictured!.file!.id)).toBeUndefined();
    await expect.poll(() => readdir(join(dir, 'files'))).toEqual([]);
  });

  it('go to the transport of their chat when several are served; one that shows none refuses', async () => {
    const web = await opened(dir);
    const pictured: { to: ChatRef | MessageRef; picture: Picture }[] = [];
    const chatApp = Object.assign(new RecordingOutbound(), {
      sendPicture: async (to: ChatRef, p: Picture) => (pictured.push({ to, picture: p }), { ...to, messageId: '7' }),
      editPicture: async (ref: MessageRef, p: Picture) => (pictured.push({ to: ref, picture: p }), true),
    }) as Outbound;
    const routed = new RoutedOutbound(
      new Map([
        ['telegram', chatApp],
        ['web', web],
        ['plain', new RecordingOutbound()],
      ]),
    );
    const inApp = await routed.sendPicture({ transport: 'telegram', chat: '5' }, picture(1));
    await routed.editPicture(inApp, picture(2));
    expect(pictured.map((p) => [p.to.chat, Buffer.from(p.picture.png).toString()])).toEqual([
      ['5', 'png-1'],
      ['5', 'png-2'],
    ]);
    const onPage = await routed.sendPicture(WEB_CHAT, picture(1));
    expect(web.history(WEB_CHAT).map((m) => m.id)).toEqual([onPage.messageId]);
    await expect(routed.sendPicture({ transport: 'plain', chat: '1' }, picture(1))).rejects.toThrow('the plain transport shows no pictures');
  });
});
