import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { TransportHost } from '../../../kernel/ports/transport.ts';
import type { WebEnv } from '../auth/guard.ts';
import type { WebOutbound } from '../chat/web-outbound.ts';
import { webChatOf } from '../chat/web-chat.ts';

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp' };

/** The longest message a page may send, as the chat apps'. */
const MAX_TEXT = 4096;

/** A person's own chat on the web: its messages, writing into it, pressing its buttons, fetching its files. */
export function chatRoutes(chats: WebOutbound, host: TransportHost): Hono<WebEnv> {
  const app = new Hono<WebEnv>();

  app.get('/', (c) => c.json(chats.history(webChatOf(c.get('session')).ref)));

  app.post('/messages', async (c) => {
    const body = await c.req.json().catch(() => ({}));
    const text = typeof body?.text === 'string' ? body.text.trim() : '';
    if (!text) return c.json({ error: 'Write something first.' }, 400);
    if (text.length > MAX_TEXT) return c.json({ error: `A message holds at most ${MAX_TEXT} characters.` }, 413);
    const { ref, user } = webChatOf(c.get('session'));
    const written = chats.written(ref, text);
    // Accepted once the bridge has taken it: the turn runs on, and its answer comes over /events.
    await host.handleMessage({
      address: ref,
      user,
      text,
      messageId: written.id,
      private: true,
      chatTitle: user.name ? `${user.name}'s web chat` : 'Web chat',
    });
    return c.json(written, 202);
  });

  app.post('/press', async (c) => {
    const body = await c.req.json().catch(() => ({}));
    if (typeof body?.messageId !== 'string' || typeof body?.data !== 'string') return c.json({ error: 'messageId and data are needed' }, 400);
    const { ref, user } = webChatOf(c.get('session'));
    return c.json(await host.handleButton({ address: ref, user, data: body.data, messageId: body.messageId }));
  });

  app.get('/files/:id', (c) => {
    const file = chats.file(c.req.param('id'));
    if (!file || file.chat !== webChatOf(c.get('session')).key) return c.json({ error: 'No such file.' }, 404);
    const stream = Readable.toWeb(createReadStream(file.path)) as ReadableStream;
    // A picture is shown in the page; anything else is downloaded, never rendered from our origin.
    const image = IMAGE_TYPES[extname(file.name).toLowerCase()];
    return c.body(stream, 200, {
      'content-type': image ?? 'application/octet-stream',
      'content-disposition': `${image ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    });
  });
  return app;
}
