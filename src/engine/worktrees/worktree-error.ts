/** A failure worded for the person in the chat: what is wrong and, where it helps, what git said. */
export class WorktreeError extends Error {
  override name = 'WorktreeError';
}
