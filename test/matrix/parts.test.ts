import { describe, expect, it } from 'vitest';
import { parseMarkdown } from '../../src/work/presentation/format/parse.ts';
import { buttonLines, ButtonMemory } from '../../src/transports/matrix/buttons.ts';
import { renderHtml } from '../../src/transports/matrix/format/html.ts';
import { matrixChat, matrixUserId, roomOf, threadOf } from '../../src/transports/matrix/id.ts';
import { attachmentsOf, coreText, mentions } from '../../src/transports/matrix/incoming.ts';
import { qualifiedId } from '../../src/kernel/ports/chat.ts';

const me = { userId: '@bridgebot:example.org', displayName: 'Bridge Bot' };
const commands = new Set(['status', 'help']);

describe("the Matrix transport's parts", () => {
  it('reads commands as Matrix people write them: !status, !bridge status, @bot status, Bridge Bot: status', () => {
    expect(coreText('!status', me, commands)).toBe('/status');
    expect(coreText('!bridge status now', me, commands)).toBe('/status now');
    expect(coreText('@bridgebot:example.org status', me, commands)).toBe('/status');
    expect(coreText('Bridge Bot: status', me, commands)).toBe('/status');
    expect(coreText('Bridge Bot: fix the build', me, commands)).toBe('fix the build');
    expect(coreText('!nosuch', me, commands)).toBe('!nosuch');
    expect(coreText('> <@ada:example.org> earlier words\n\n!status', me, commands)).toBe('/status');
  });

  it('knows a mention by m.mentions, by name, or by a pill', () => {
    expect(mentions({ body: 'hi', 'm.mentions': { user_ids: [me.userId] } }, me)).toBe(true);
    expect(mentions({ body: 'hey Bridge Bot, look' }, me)).toBe(true);
    expect(mentions({ body: 'x', formatted_body: '<a href="https://matrix.to/#/@bridgebot:example.org">x</a>' }, me)).toBe(true);
    expect(mentions({ body: 'talking among people' }, me)).toBe(false);
  });

  it('keeps room and event ids whole through a chat key, and people as matrix:@alice:example.org', () => {
    const chat = matrixChat('!abc:example.org', '$root:example.org');
    expect(chat).toEqual({ transport: 'matrix', chat: '!abc~example.org', thread: '$root~example.org' });
    expect([roomOf(chat), threadOf(chat)]).toEqual(['!abc:example.org', '$root:example.org']);
    expect(matrixUserId('matrix:@alice:example.org')).toBe('@alice:example.org');
    expect(matrixUserId('slack:U123')).toBeUndefined();
    expect(qualifiedId('matrix:@alice:example.org:8448', 'telegram')).toBe('matrix:@alice:example.org:8448');
  });

  it('renders Markdown as org.matrix.custom.html, line breaks kept', () => {
    expect(renderHtml(parseMarkdown('**bold** and `code`\nnext <line>'))).toBe('<strong>bold</strong> and <code>code</code><br>next &lt;line&gt;');
    expect(renderHtml(parseMarkdown('```ts\nconst a = 1;\n```'))).toBe('<pre><code class="language-ts">const a = 1;</code></pre>');
  });

  it('writes buttons as keyed reactions, and takes a reaction with a key as that press', () => {
    const lines = buttonLines([
      [
        { text: '✅ Allow', data: 'a' },
        { text: '❌ Deny', data: 'd' },
      ],
      [{ text: 'Docs', data: '', opens: { url: 'https://x.example' } }],
    ]);
    expect(lines.plain).toBe('1️⃣ ✅ Allow · 2️⃣ ❌ Deny\nDocs: https://x.example');
    const memory = new ButtonMemory();
    const chat = matrixChat('!r:example.org');
    memory.keep('$q', 'matrix:!r~example.org', { chat, data: lines.data }, true);
    memory.keep('$progress', 'matrix:!r~example.org', { chat, data: ['stop'] }, false);
    expect(memory.press('$q', '2️⃣')).toEqual({ chat, data: 'd' });
    expect(memory.press('$q', '2\u20E3')).toEqual({ chat, data: 'd' });
    expect(memory.press('$q', '3️⃣')).toBeUndefined();
    expect(memory.latestIn('matrix:!r~example.org')).toBe('$q');
  });

  it('takes a file by its mxc:// address', () => {
    expect(
      attachmentsOf({ msgtype: 'm.file', body: 'read it', filename: 'a.txt', url: 'mxc://example.org/abc', info: { mimetype: 'text/plain', size: 3 } }),
    ).toEqual([{ kind: 'document', id: 'mxc://example.org/abc', fileName: 'a.txt', mimeType: 'text/plain', size: 3 }]);
    expect(attachmentsOf({ msgtype: 'm.text', body: 'hi' })).toEqual([]);
  });
});
