import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outbound } from '../../src/kernel/ports/chat.ts';
import { planMarkdown } from '../../src/work/presentation/deliver.ts';
import { RoutedOutbound } from '../../src/transports/serving/routed-outbound.ts';
import { WebOutbound } from '../../src/surfaces/web/chat/web-outbound.ts';
import { plain } from '../../src/kernel/rich/index.ts';
import { RecordingOutbound } from '../support/recording-outbound.ts';

// Several transports at once: each chat is cut and described by its own app, never by the first one served.
describe('the outbound of several transports', () => {
  let dir: string;
  let routed: RoutedOutbound;
  const chatApp = { transport: 'telegram', chat: '5' };
  const page = { transport: 'web', chat: 'telegram.5' };

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'routed-'));
    routed = new RoutedOutbound(
      new Map<string, Outbound>([
        ['telegram', new RecordingOutbound()],
        ['web', await WebOutbound.open(dir)],
      ]),
    );
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("cuts a long answer by the chat's own app: several messages in the chat app, one on the page", () => {
    const answer = Array.from({ length: 400 }, (_, i) => `Line ${i}: ${'words '.repeat(6)}`).join('\n');
    const inApp = planMarkdown(answer, routed.fit(chatApp), { documentOverChars: 100_000 });
    const onPage = planMarkdown(answer, routed.fit(page), { documentOverChars: 100_000 });
    expect(inApp.length).toBeGreaterThan(1);
    expect(onPage).toHaveLength(1);
  });

  it("answers each chat's capabilities from its app", () => {
    expect(routed.capabilities(chatApp).messageChars).toBe(4096);
    expect(routed.capabilities(page).messageChars).toBe(Number.POSITIVE_INFINITY);
    expect(routed.capabilities(page).drafts).toBe(true);
  });

  it('refuses a chat of a transport it does not serve, naming it', async () => {
    await expect(routed.send({ transport: 'elsewhere', chat: '1' }, plain('hi'))).rejects.toThrow('the elsewhere transport is not served');
  });
});
