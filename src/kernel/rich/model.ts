// The bridge's rich text, whatever the transport: a flat run of styled text and
// the places it may be cut. The core builds it (build.ts) or parses it from an
// agent's Markdown; each transport renders it (its markup, or plain text) and
// cuts it into messages, so every rendering covers exactly the same content.

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

export interface RunStyle extends InlineStyle {
  readonly quote: boolean;
  /** The language of the enclosing preformatted block ('' for none), or null outside one. */
  readonly pre: string | null;
}

/** A run's style when it has none. */
export const UNSTYLED: RunStyle = { ...PLAIN, quote: false, pre: null };

export interface Run {
  readonly text: string;
  readonly style: RunStyle;
  /** Offset of `text` within `RichText.text`. */
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

/** Rich text: build it with build.ts, never by hand (runs and cuts must agree with `text`). */
export interface RichText {
  /** The visible text: what a chat shows once styles are applied. */
  readonly text: string;
  readonly runs: readonly Run[];
  /** Sorted by `at`. */
  readonly cuts: readonly Cut[];
}
