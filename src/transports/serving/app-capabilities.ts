import type { ChatCapabilities } from '../../kernel/ports/capabilities.ts';

type Shared = 'threads' | 'drafts' | 'reactions' | 'pictures';

/** A chat app's capabilities, frozen: its own limits, over what the apps share (threads, reactions, pictures; no drafts kept). */
export function appCapabilities(own: Omit<ChatCapabilities, Shared> & Partial<Pick<ChatCapabilities, Shared>>): ChatCapabilities {
  return Object.freeze({ threads: true, drafts: false, reactions: true, pictures: true, ...own });
}
