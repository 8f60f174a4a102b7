import { Graph, layout, type EdgeLabel, type GraphLabel, type NodeLabel } from '@dagrejs/dagre';
import type { GraphEdge, GraphModel, GraphNode } from './graph-model.ts';

/**
 * Where each box and arrow of a graph goes, laid out by dagre (layered, edges pointing one
 * way). Sizes are in SVG user units (pixels at scale 1). Pure and synchronous: a web page can
 * run it as well as the server.
 */

export interface Point {
  x: number;
  y: number;
}

export interface PlacedNode extends GraphNode {
  /** The box's top left corner. */
  x: number;
  y: number;
  width: number;
  height: number;
  /** The label as it fits in the box (cut short with "…"). */
  shownLabel: string;
  /** The second line as shown: the state's word, then the node's detail. */
  shownDetail: string;
}

export interface PlacedEdge extends GraphEdge {
  /** From the edge of `from`'s box to the edge of `to`'s, through the bends. */
  points: Point[];
}

export interface GraphLayout {
  width: number;
  height: number;
  /** Top to bottom, or left to right (chosen for the shape nearer a screen's). */
  direction: 'TB' | 'LR' | 'grid';
  title?: string;
  nodes: PlacedNode[];
  edges: PlacedEdge[];
}

/** The sizes of everything drawn: the SVG builder draws with the same numbers. */
export const METRICS = {
  fontFamily: "'DejaVu Sans', Verdana, 'Segoe UI', Arial, sans-serif",
  labelSize: 13,
  detailSize: 11,
  titleSize: 15,
  nodeHeight: 46,
  minNodeWidth: 120,
  maxNodeWidth: 300,
  /** Space inside a box, left and right of its words; the state's mark sits in the left one. */
  padLeft: 32,
  padRight: 12,
  margin: 16,
  titleHeight: 30,
  nodeGap: 24,
  rankGap: 40,
  /** Characters of a label, of a detail, before "…". */
  maxLabelChars: 32,
  maxDetailChars: 40,
  maxTitleChars: 80,
  /** The picture is widened for its title up to this; a longer title is cut short. */
  maxTitleWidth: 520,
} as const;

/** Wider than this (to its height), a top-to-bottom picture is worth laying out the other way. */
const TARGET_ASPECT = 1.2;
/** Chat apps refuse photos far longer than wide (past 20 to 1, or the reverse): keep well inside. */
const MAX_ASPECT = 8;

export function layoutGraph(model: GraphModel): GraphLayout {
  const ids = new Set<string>();
  // A node is drawn once, however often it is listed.
  const sized = model.nodes.filter((node) => !ids.has(node.id) && ids.add(node.id)).map((node) => sizeNode(node));
  // An edge to a node that is not in the graph, or a node to itself, has nowhere to go.
  const seen = new Set<string>();
  const edges = model.edges.filter((edge) => {
    const key = JSON.stringify([edge.from, edge.to]);
    if (seen.has(key) || !ids.has(edge.from) || !ids.has(edge.to) || edge.from === edge.to) return false;
    seen.add(key);
    return true;
  });
  const placed = edges.length ? best([placeWithDagre(sized, edges, 'TB'), placeWithDagre(sized, edges, 'LR')]) : placeInGrid(sized);
  const titled = model.title ? withTitle(placed, oneLine(model.title)) : placed;
  return withinAspect(titled);
}

/**
 * Room for the title above the graph: the picture is widened for it (up to `maxTitleWidth`,
 * the graph centred), and a title wider still is cut short.
 */
function withTitle(placed: Placed, title: string): GraphLayout {
  const wanted = Math.ceil(textWidth(title, METRICS.titleSize, true)) + 2 * METRICS.margin;
  const width = Math.max(placed.width, Math.min(wanted, METRICS.maxTitleWidth));
  const room = width - 2 * METRICS.margin;
  const shown = fit(title, METRICS.maxTitleChars, (text) => textWidth(text, METRICS.titleSize, true) <= room);
  const dy = METRICS.titleHeight;
  return { ...moved(placed, (width - placed.width) / 2, dy), width, height: placed.height + dy, title: shown };
}

type Sized = GraphNode & { width: number; height: number; shownLabel: string; shownDetail: string };
type Placed = Omit<GraphLayout, 'title'>;

function sizeNode(node: GraphNode): Sized {
  const room = METRICS.maxNodeWidth - METRICS.padLeft - METRICS.padRight;
  const shownLabel = fit(oneLine(node.label) || node.id, METRICS.maxLabelChars, (text) => textWidth(text, METRICS.labelSize, true) <= room);
  const detail = oneLine([node.state, node.detail].filter(Boolean).join(' · '));
  const shownDetail = fit(detail, METRICS.maxDetailChars, (text) => textWidth(text, METRICS.detailSize, false) <= room);
  const words = Math.max(textWidth(shownLabel, METRICS.labelSize, true), textWidth(shownDetail, METRICS.detailSize, false));
  const width = Math.min(METRICS.maxNodeWidth, Math.max(METRICS.minNodeWidth, Math.ceil(words + METRICS.padLeft + METRICS.padRight)));
  return { ...node, width, height: METRICS.nodeHeight, shownLabel, shownDetail };
}

function placeWithDagre(nodes: Sized[], edges: GraphEdge[], direction: 'TB' | 'LR'): Placed {
  const graph = new Graph<GraphLabel, NodeLabel, EdgeLabel>();
  graph.setGraph({ rankdir: direction, nodesep: METRICS.nodeGap, ranksep: METRICS.rankGap, marginx: METRICS.margin, marginy: METRICS.margin });
  graph.setDefaultEdgeLabel(() => ({}));
  for (const node of nodes) graph.setNode(node.id, { width: node.width, height: node.height });
  for (const edge of edges) graph.setEdge(edge.from, edge.to);
  layout(graph);
  const label = graph.graph();
  return {
    width: Math.ceil(label.width ?? 0),
    height: Math.ceil(label.height ?? 0),
    direction,
    nodes: nodes.map((node) => {
      const at = graph.node(node.id);
      return { ...node, x: (at.x ?? 0) - node.width / 2, y: (at.y ?? 0) - node.height / 2 };
    }),
    edges: edges.map((edge) => ({ ...edge, points: (graph.edge(edge.from, edge.to).points ?? []).map((p: Point) => ({ x: p.x, y: p.y })) })),
  };
}

/** Steps with no dependencies at all (a parallel plan): rows of a grid, near a screen's shape, rather than one long line. */
function placeInGrid(nodes: Sized[]): Placed {
  const columns = Math.max(1, Math.min(nodes.length, Math.ceil(Math.sqrt(nodes.length * 1.5))));
  const rows = Math.ceil(nodes.length / columns);
  const cell = Math.max(METRICS.minNodeWidth, ...nodes.map((node) => node.width));
  return {
    width: METRICS.margin * 2 + columns * cell + (columns - 1) * METRICS.nodeGap,
    height: METRICS.margin * 2 + rows * METRICS.nodeHeight + Math.max(0, rows - 1) * METRICS.nodeGap,
    direction: 'grid',
    nodes: nodes.map((node, i) => ({
      ...node,
      width: cell,
      x: METRICS.margin + (i % columns) * (cell + METRICS.nodeGap),
      y: METRICS.margin + Math.floor(i / columns) * (METRICS.nodeHeight + METRICS.nodeGap),
    })),
    edges: [],
  };
}

/** Of the candidate layouts, the one whose shape is nearest a screen's; top to bottom on a tie. */
function best(candidates: Placed[]): Placed {
  const distance = (placed: Placed) => Math.abs(Math.log(Math.max(1, placed.width) / Math.max(1, placed.height)) - Math.log(TARGET_ASPECT));
  return candidates.reduce((a, b) => (distance(b) < distance(a) ? b : a));
}

/** A picture far longer than wide (or the reverse) gets room on its short side, centred. */
function withinAspect(placed: GraphLayout): GraphLayout {
  const width = Math.max(placed.width, Math.ceil(placed.height / MAX_ASPECT));
  const height = Math.max(placed.height, Math.ceil(placed.width / MAX_ASPECT));
  if (width === placed.width && height === placed.height) return placed;
  return { ...moved(placed, (width - placed.width) / 2, (height - placed.height) / 2), width, height };
}

/** Every box and arrow moved by (dx, dy). */
function moved<T extends Placed>(placed: T, dx: number, dy: number): T {
  return {
    ...placed,
    nodes: placed.nodes.map((node) => ({ ...node, x: node.x + dx, y: node.y + dy })),
    edges: placed.edges.map((edge) => ({ ...edge, points: edge.points.map((p) => ({ x: p.x + dx, y: p.y + dy })) })),
  };
}

/**
 * About how wide `text` is in DejaVu Sans (the font the server renders with), by classes of
 * letters; a little generous, so words fit their box in other fonts too.
 */
export function textWidth(text: string, size: number, bold: boolean): number {
  let em = 0;
  for (const char of text) {
    if (/[iljtfrI.,:;'!|()[\] ]/.test(char)) em += 0.36;
    else if (/[mwMW@%]/.test(char)) em += 0.95;
    else if (/[A-Z]/.test(char)) em += 0.74;
    else if (char.codePointAt(0)! > 0x2e7f)
      em += 1.0; // CJK and the like: full width
    else em += 0.64;
  }
  return em * size * (bold ? 1.1 : 1);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** At most `max` characters (not UTF-16 units: a surrogate pair is never split). */
function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/** `text` cut short (with "…") until it has at most `max` characters and `fits`. */
function fit(text: string, max: number, fits: (text: string) => boolean): string {
  let shown = cut(text, max);
  for (let keep = Math.min(max, Array.from(text).length) - 1; keep > 1 && !fits(shown); keep--) shown = cut(text, keep);
  return shown;
}
