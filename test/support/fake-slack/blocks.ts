import { SlackError } from './slack-error.ts';

/** Slack's documented limits on a message's text and Block Kit. */
export const LIMITS = {
  /** chat.postMessage and chat.update refuse longer text with msg_too_long. */
  textChars: 40_000,
  blocks: 50,
  sectionText: 3000,
  buttonValue: 2000,
  buttonText: 75,
  actionId: 255,
  actionsElements: 25,
} as const;

/** msg_too_long for text past the limit. */
export function checkText(text: unknown): void {
  if (typeof text === 'string' && text.length > LIMITS.textChars) throw new SlackError('msg_too_long');
}

/** The message's blocks, parsed (form bodies carry them as JSON text); invalid_blocks where Slack would refuse them. */
export function parseBlocks(raw: unknown): unknown[] | undefined {
  if (raw === undefined || raw === '') return undefined;
  let blocks: unknown;
  try {
    blocks = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    throw new SlackError('invalid_blocks_format');
  }
  if (!Array.isArray(blocks)) throw new SlackError('invalid_blocks_format');
  const problems = blockProblems(blocks);
  if (problems.length) throw new SlackError('invalid_blocks', { errors: problems, response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) } });
  return blocks;
}

function blockProblems(blocks: unknown[]): string[] {
  const problems: string[] = [];
  if (blocks.length > LIMITS.blocks) problems.push(`no more than ${LIMITS.blocks} items allowed [json-pointer:/blocks]`);
  const actionIds = new Set<string>();
  const blockIds = new Set<string>();
  blocks.forEach((block, i) => {
    const b = block as { type?: string; block_id?: string; text?: { text?: string }; elements?: unknown[] };
    if (b.block_id !== undefined) {
      if (blockIds.has(b.block_id)) problems.push(`block_id must be unique [json-pointer:/blocks/${i}/block_id]`);
      blockIds.add(b.block_id);
    }
    if (b.type === 'section') {
      const text = b.text?.text ?? '';
      if (text.length > LIMITS.sectionText) problems.push(`must be less than ${LIMITS.sectionText + 1} characters [json-pointer:/blocks/${i}/text/text]`);
      if (text.length === 0) problems.push(`must be more than 0 characters [json-pointer:/blocks/${i}/text/text]`);
    } else if (b.type === 'actions') {
      const elements = b.elements ?? [];
      if (elements.length > LIMITS.actionsElements) problems.push(`no more than ${LIMITS.actionsElements} items allowed [json-pointer:/blocks/${i}/elements]`);
      elements.forEach((element, j) => {
        const e = element as { type?: string; action_id?: string; value?: string; url?: string; text?: { text?: string } };
        const at = `/blocks/${i}/elements/${j}`;
        if (e.action_id !== undefined) {
          if (actionIds.has(e.action_id)) problems.push(`action_id must be unique [json-pointer:${at}/action_id]`);
          if (e.action_id.length > LIMITS.actionId) problems.push(`must be less than ${LIMITS.actionId + 1} characters [json-pointer:${at}/action_id]`);
          actionIds.add(e.action_id);
        }
        if (e.type === 'button') {
          if ((e.value ?? '').length > LIMITS.buttonValue) problems.push(`must be less than ${LIMITS.buttonValue + 1} characters [json-pointer:${at}/value]`);
          if ((e.text?.text ?? '').length > LIMITS.buttonText) problems.push(`must be less than ${LIMITS.buttonText + 1} characters [json-pointer:${at}/text]`);
        }
      });
    } else if (b.type !== 'context' && b.type !== 'divider' && b.type !== 'header' && b.type !== 'rich_text' && b.type !== 'image' && b.type !== 'markdown') {
      problems.push(`unsupported type: ${String(b.type)} [json-pointer:/blocks/${i}/type]`);
    }
  });
  return problems;
}
