// The intermediate representation between marked's tokens and Telegram HTML.
// Rendering, plain-text fallback and splitting all work on the same flat
// `Doc`, so every chunk's HTML and plain text cover exactly the same content.

/** A link target; compared by identity so two adjacent links stay distinct. */
export interface LinkTarget {
  readonly href: string;
}

export interface InlineStyle {
  readonly bold: boolean;
  readonly italic: boolean;
  readonly strike: boolean;
  readonly code: boolean;
  readonly link: LinkTarget | null;
}

export const PLAIN: InlineStyle = { bold: false, italic: false, strike: false, code: false, link: null };

export interface Span {
  readonly text: string;
  readonly style: InlineStyle;
}

/** Block-level output: flowing text (maybe quoted) or a preformatted block. */
export type Block =
  | { readonly kind: 'text'; readonly quote: boolean; readonly spans: readonly Span[]; readonly keepWithNext?: boolean }
  | { readonly kind: 'pre'; readonly lang: string; readonly text: string };

export interface RunStyle extends InlineStyle {
  readonly quote: boolean;
  /** The language of the enclosing `<pre>` ('' for none), or null outside one. */
  readonly pre: string | null;
}

export interface Run {
  readonly text: string;
  readonly style: RunStyle;
  /** Offset of `text` within `Doc.text`. */
  readonly start: number;
  /** Appended to the plain rendering after this run, e.g. " (https://…)" at a link's end. */
  readonly plainSuffix: string;
}

/** How good a place a cut is; higher is preferred. */
export const CutRank = {
  /** After a heading: allowed, but only if nothing better fits. */
  glued: 1,
  word: 2,
  line: 3,
  block: 4,
} as const;
export type CutRank = (typeof CutRank)[keyof typeof CutRank];

/** A place to end a chunk: the chunk ends at `at`; the next starts at `at + skip`. */
export interface Cut {
  readonly at: number;
  readonly skip: number;
  readonly rank: CutRank;
}

export interface Doc {
  /** The visible text: what Telegram shows once tags are applied. */
  readonly text: string;
  readonly runs: readonly Run[];
  /** Sorted by `at`. */
  readonly cuts: readonly Cut[];
}
