// The core's rich text, the same for every transport: built here or parsed from Markdown
// (presentation/format), rendered by each transport (its markup, or plainText).
export type { RichText } from './model.ts';
export { bold, code, italic, join, lines, link, plain, pre, rich, titled, type Rich } from './build.ts';
export { concat, framed, replaced, slice, type Frame } from './edit.ts';
export { plainText } from './plain.ts';
