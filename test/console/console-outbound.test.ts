import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConsoleOutbound } from '../../src/transports/console/outbound.ts';
import { CONSOLE_ADDRESS } from '../../src/transports/console/console.ts';
import { plain } from '../../src/kernel/rich/index.ts';

describe('the console as a chat', () => {
  it('prints each change of a message once: a clock that moves is no change', async () => {
    let printed = '';
    const out = new ConsoleOutbound((text) => (printed += text), '/nonexistent');
    const ref = await out.send(CONSOLE_ADDRESS, plain('🔐 claude · waiting for your answer · 0:00\n📁 /work'));
    for (const time of ['0:05', '0:10', '1:15', '1:02:20']) await out.edit(ref, plain(`🔐 claude · waiting for your answer · ${time}\n📁 /work`));
    await out.edit(ref, plain('⚙️ claude · working · 1:02:25\n📁 /work\n▸ Bash `make`'));
    await out.edit(ref, plain('⚙️ claude · working · 1:02:30\n📁 /work\n▸ Bash `make`'));
    expect(printed).toBe('🔐 claude · waiting for your answer · 0:00\n📁 /work\n⚙️ claude · working · 1:02:25\n▸ Bash `make`\n');
  });

  it('prints the clock again once a message has shown nothing new for 15 s: a turn that waits is seen to', async () => {
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    let printed = '';
    const out = new ConsoleOutbound((text) => (printed += text), '/nonexistent');
    const ref = await out.send(CONSOLE_ADDRESS, plain('⚙️ claude · working · 0:00\n📁 /work'));
    for (const seconds of [5, 10, 15, 20, 25, 30]) {
      vi.setSystemTime(seconds * 1000);
      await out.edit(ref, plain(`⚙️ claude · working · 0:${String(seconds).padStart(2, '0')}\n📁 /work`));
    }
    expect(printed).toBe('⚙️ claude · working · 0:00\n📁 /work\n⚙️ claude · working · 0:15\n⚙️ claude · working · 0:30\n');
  });
});

afterEach(() => {
  vi.useRealTimers();
});
