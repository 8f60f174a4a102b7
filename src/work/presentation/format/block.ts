import type { InlineStyle } from '../../../kernel/rich/model.ts';

// What Markdown's tokens become before they are laid out as one rich text.

export interface Span {
  readonly text: string;
  readonly style: InlineStyle;
}

/** Block-level output: flowing text (maybe quoted) or a preformatted block. */
export type Block =
  | { readonly kind: 'text'; readonly quote: boolean; readonly spans: readonly Span[]; readonly keepWithNext?: boolean }
  | { readonly kind: 'pre'; readonly lang: string; readonly text: string };
