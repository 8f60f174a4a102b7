import { useEffect, useRef, useState } from 'preact/hooks';
import { fileAddress, post } from '../api.ts';
import type { Live } from '../live.ts';
import { RichText } from '../rich-text.tsx';
import type { WebMessage } from '../types.ts';

/** A file the bridge sent: shown (a picture) or offered for download, fetched with the session. */
function SentFile({ file }: { file: NonNullable<WebMessage['file']> }) {
  const [address, setAddress] = useState<string | undefined>();
  useEffect(() => {
    let made: string | undefined;
    fileAddress(`/chat/files/${file.id}`).then(
      (url) => setAddress((made = url)),
      () => setAddress(undefined),
    );
    return () => {
      if (made?.startsWith('blob:')) URL.revokeObjectURL(made);
    };
  }, [file.id]);
  if (!address) return <span class="file">📎 {file.name}</span>;
  return file.photo ? (
    <img src={address} alt={file.name} />
  ) : (
    <a class="file" href={address} download={file.name}>
      📎 {file.name}
    </a>
  );
}

/** The longest message the bridge takes from this page (as the chat apps). */
const MAX_MESSAGE = 4096;
const count = (n: number) => n.toLocaleString('en-US');

/** This person's own chat with the bridge: its own session, as in Telegram, with live progress, Stop and buttons. */
export function Chat({ live }: { live: Live }) {
  const [text, setText] = useState('');
  const [toast, setToast] = useState('');
  const list = useRef<HTMLOListElement>(null);
  // The conversation's own box follows its newest message; the page around it stays put.
  useEffect(() => {
    if (list.current) list.current.scrollTop = list.current.scrollHeight;
  }, [live.chat.length, live.chat[live.chat.length - 1]?.edited]);
  const send = async (event: Event) => {
    event.preventDefault();
    const words = text.trim();
    if (!words) return;
    // Refused here, the draft stays in the box to be shortened; refused by the bridge, it comes back.
    if (words.length > MAX_MESSAGE) {
      setToast(`Not sent: this message is ${count(words.length)} characters, and a message holds at most ${count(MAX_MESSAGE)}.`);
      return;
    }
    setText('');
    await post('/chat/messages', { text: words }).catch((error: Error) => {
      setToast(error.message);
      setText((typed) => typed || text);
    });
  };
  const press = async (message: WebMessage, data: string) => {
    const answer = await post<{ text: string }>('/chat/press', { messageId: message.id, data }).catch((error: Error) => ({ text: error.message }));
    setToast(answer.text);
  };
  return (
    <section class="chat">
      {live.chat.length === 0 && (
        <p class="empty" data-testid="chat-empty">
          This is your own chat with the agent, as in your chat app. Write what you want done below, like "Why does npm test fail? Fix it.", and watch it work
          here. /help lists the commands.
        </p>
      )}
      <ol class="messages" data-testid="chat" ref={list} tabIndex={0} aria-label="Conversation">
        {live.chat.map((m) => (
          <li key={m.id} class={m.from} data-message={m.id}>
            <RichText spans={m.spans} />
            {m.file && <SentFile file={m.file} />}
            {m.buttons && (
              <div class="buttons">
                {m.buttons.flat().map((b, i) =>
                  b.opens ? (
                    <a key={i} class="button" href={b.opens.url} target="_blank" rel="noopener noreferrer">
                      {b.text}
                    </a>
                  ) : (
                    <button key={i} onClick={() => void press(m, b.data)}>
                      {b.text}
                    </button>
                  ),
                )}
              </div>
            )}
          </li>
        ))}
      </ol>
      <p class="toast" role="status">
        {toast}
        {toast && (
          <button type="button" class="link" aria-label="Dismiss" onClick={() => setToast('')}>
            ×
          </button>
        )}
      </p>
      <form onSubmit={(e) => void send(e)}>
        <textarea
          aria-label="Message"
          value={text}
          placeholder="Message the agent, or /help"
          rows={2}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) void send(e);
          }}
        />
        <button type="submit">Send</button>
      </form>
    </section>
  );
}
