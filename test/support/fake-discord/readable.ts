/**
 * A message's Markdown as a reader sees it in Discord's client: code fences, quote marks,
 * bold, italics, strike, inline code and masked links rendered away, escapes taken out.
 */
export function readable(content: string): string {
  return content
    .replace(/```[^\n]*\n([\s\S]*?)\n?```/g, '$1')
    .replace(/^>>?>? /gm, '')
    .replace(/\[((?:\\.|[^\]\\])*)\]\(<([^>]*)>\)/g, '$1')
    .replace(/<(https?:[^>\s]+)>/g, '$1')
    .replace(/`` (.*?) ``/g, '$1')
    .replace(/(?<!\\)`([^`]*)`/g, '$1')
    .replace(/(?<!\\)(\*\*|~~)/g, '')
    .replace(/(?<![\\\w])_(?=\S)/g, '')
    .replace(/(?<=\S)(?<!\\)_(?!\w)/g, '')
    .replace(/\\([\\*_~`|[\]<>#-])/g, '$1')
    .replace(/\u200b/g, '');
}
