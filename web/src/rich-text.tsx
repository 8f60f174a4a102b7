import type { WebSpan } from './types.ts';

/** A styled piece of text: text nodes only (the bridge sends no markup), links only to http(s). */
function Span({ span }: { span: WebSpan }) {
  let node = <>{span.text}</>;
  if (span.code) node = <code>{node}</code>;
  if (span.bold) node = <strong>{node}</strong>;
  if (span.italic) node = <em>{node}</em>;
  if (span.strike) node = <s>{node}</s>;
  if (span.href)
    node = (
      <a href={span.href} target="_blank" rel="noopener noreferrer">
        {node}
      </a>
    );
  return node;
}

/** Rich text as the chat shows it (a message, a run's result): runs of a preformatted block, and of a quote, gathered into one block. */
export function RichText({ spans }: { spans: WebSpan[] }) {
  const blocks: { kind: 'pre' | 'quote' | 'text'; spans: WebSpan[] }[] = [];
  for (const span of spans) {
    const kind = span.pre !== undefined ? 'pre' : span.quote ? 'quote' : 'text';
    const last = blocks[blocks.length - 1];
    if (last?.kind === kind) last.spans.push(span);
    else blocks.push({ kind, spans: [span] });
  }
  return (
    <>
      {blocks.map((b, i) => {
        const inner = b.spans.map((s, j) => <Span key={j} span={s} />);
        return b.kind === 'pre' ? <pre key={i}>{inner}</pre> : b.kind === 'quote' ? <blockquote key={i}>{inner}</blockquote> : <span key={i}>{inner}</span>;
      })}
    </>
  );
}
