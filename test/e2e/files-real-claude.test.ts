import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { execa } from 'execa';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModelRequest, Reply } from '../support/mock-model/index.ts';
import { startRealCliWorld, type RealCliWorld } from '../support/real-cli-world.ts';
import { OWNER } from '../support/telegram-world.ts';

// Files with the real claude binary: a photo sent to the chat is read by the agent and
// reaches the model API as an image; the agent's send_file call arrives in the chat.
let real: RealCliWorld;
const CHAT = -2000;
/** A real 1×1 JPEG, as a phone's screenshot would be (only smaller). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wgALCAABAAEBAREA/8QAFBABAAAAAAAAAAAAAAAAAAAAAP/aAAgBAQABPxA=',
  'base64',
);

/** Reads the file a message names; sends out/chart.png when asked to; otherwise says what the tool said. */
function script(request: ModelRequest): Reply {
  const results = request.toolResults;
  if (results.length) return { text: `tool said: ${results.at(-1)!.content || '(an image)'}` };
  const named = /- (\.bridge\/inbox\/\S+) \(/.exec(request.lastUserText)?.[1];
  if (named) return { toolCalls: [{ name: 'Read', input: { file_path: join(real.cliEnv.workdir, named) } }] };
  if (/send the chart/.test(request.lastUserText))
    return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: 'out/chart.png', caption: 'CPU by hour' } }] };
  if (/send the report/.test(request.lastUserText))
    return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: join(real.cliEnv.workdir, 'out', 'report.md') } }] };
  if (/send the secret/.test(request.lastUserText)) return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: '/etc/passwd' } }] };
  if (/send the pipe/.test(request.lastUserText)) return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: 'out/pipe' } }] };
  if (/send the link/.test(request.lastUserText)) return { toolCalls: [{ name: 'mcp__bridge__send_file', input: { path: 'out/passwd-link' } }] };
  return { text: 'nothing to do' };
}

beforeAll(async () => {
  real = await startRealCliWorld('claude', script);
});
afterAll(() => real.stop());

const telegram = () => real.world.telegram;
const waitMessage = (pattern: RegExp) =>
  telegram().waitFor(
    () =>
      telegram()
        .botMessages(CHAT)
        .find((m) => pattern.test(m.text ?? m.caption ?? '')),
    40_000,
  );

describe('files with the real claude', () => {
  it('a photo sent to the chat reaches the model as an image block when the agent reads it', async () => {
    telegram().sendFile({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', kind: 'photo', bytes: JPEG, caption: 'what does this show?' });
    await waitMessage(/^tool said/);
    const withImage = real.mock.modelRequests.find((request) => JSON.stringify(request.rawBody.messages ?? []).includes('"type":"image"'));
    expect(withImage).toBeDefined();
    const blocks = JSON.stringify(withImage!.rawBody.messages);
    expect(blocks).toContain('"media_type":"image/jpeg"');
  });

  it("the agent's send_file arrives in the chat as a photo with its caption", async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    await mkdir(join(real.cliEnv.workdir, 'out'), { recursive: true });
    await writeFile(join(real.cliEnv.workdir, 'out', 'chart.png'), png);
    telegram().sendText({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', text: 'send the chart please' });
    const photo = await telegram().waitFor(
      () =>
        telegram()
          .botMessages(CHAT)
          .find((m) => m.media?.kind === 'photo'),
      40_000,
    );
    expect(photo.caption).toBe('CPU by hour');
    expect(photo.media!.bytes).toEqual(png);
    await waitMessage(/^tool said: Sent chart\.png \(1 KB\) to the chat as a photo\./);
  });

  it('a document goes as a document; a path outside the working directory is a tool error the agent reads', async () => {
    await writeFile(join(real.cliEnv.workdir, 'out', 'report.md'), '# Findings\n');
    telegram().sendText({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', text: 'send the report' });
    const document = await telegram().waitFor(
      () =>
        telegram()
          .botMessages(CHAT)
          .find((m) => m.document?.fileName === 'report.md'),
      40_000,
    );
    expect(document.document!.bytes.toString()).toBe('# Findings\n');
    // The turn ends first: a message sent while it works would steer it instead.
    await waitMessage(/^tool said: Sent report\.md/);
    telegram().sendText({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', text: 'send the secret' });
    await waitMessage(/^tool said: Not sent: \/etc\/passwd is outside /);
  });

  it('a named pipe is refused without being opened, and a link leading out is refused; the chat goes on', async () => {
    await execa('mkfifo', [join(real.cliEnv.workdir, 'out', 'pipe')]);
    await symlink('/etc/passwd', join(real.cliEnv.workdir, 'out', 'passwd-link'));
    telegram().sendText({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', text: 'send the pipe' });
    await waitMessage(/^tool said: Not sent: out\/pipe is a named pipe: only files and directories are sent\./);
    telegram().sendText({ chatId: CHAT, userId: OWNER, chatType: 'group', firstName: 'Ada', text: 'send the link' });
    await waitMessage(/^tool said: Not sent: out\/passwd-link is outside /);
  });
});
