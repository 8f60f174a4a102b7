/**
 * A graph as pictures draw it: boxes with a label and a state, and arrows between them. It
 * knows nothing of where the graph comes from (an orchestration's steps, say) or where it is
 * shown (a chat, a web page).
 */

/** What a node is doing, in the words (and colours) the pictures use. */
export const NODE_STATES = ['waiting', 'running', 'done', 'failed', 'skipped', 'stopped'] as const;
export type NodeState = (typeof NODE_STATES)[number];

export interface GraphNode {
  /** Unique within the graph; `data-node` in the SVG. */
  id: string;
  /** The words in the box (cut short when long). */
  label: string;
  state: NodeState;
  /** A second, smaller line: a run's number, a duration. */
  detail?: string;
}

/** `from` comes before `to`: the arrow points at `to`. */
export interface GraphEdge {
  from: string;
  to: string;
}

export interface GraphModel {
  /** A line above the graph. */
  title?: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}
