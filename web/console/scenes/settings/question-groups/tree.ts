/**
 * The question tree of the editor as pure functions (spec sections 3, 4 and 5): new groups and nodes, answer
 * actions (new adds a child question with two empty answers, leaving new drops it, next adds a top-level
 * question), removal, reordering among siblings, and the field errors by node id.
 */
import { QG_MESSAGES, QUESTION_GROUP_LIMITS, type TreeNode } from '../../../../../server/shared/questionGroups';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Random identifier of letters and digits (13 characters for nodes, 10 for groups). */
export function randomId(length: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(length)), (b) => ALPHABET[b % ALPHABET.length]).join('');
}

export const newNodeId = () => randomId(QUESTION_GROUP_LIMITS.nodeIdChars);

/** A new answer ends the questions until the owner picks another "Then": no answer starts without one. */
export function newAnswer(): TreeNode {
  return { id: newNodeId(), text: '', isQ: false, children: [], action: '' };
}

/** A question with two empty answers (how a new group and 'Ask new question' start). */
export function newQuestion(): TreeNode {
  return { id: newNodeId(), text: '', isQ: true, expanded: true, children: [newAnswer(), newAnswer()] };
}

export function parseTreeJson(treeJson: string): TreeNode[] {
  try {
    const parsed = JSON.parse(treeJson || '[]') as unknown;
    return Array.isArray(parsed) ? (parsed as TreeNode[]) : [];
  } catch {
    return [];
  }
}

/** A copy of `tree` with the node `id` replaced by `fn(node)` (or removed when fn answers null). */
export function updateNode(tree: TreeNode[], id: string, fn: (n: TreeNode) => TreeNode | null): TreeNode[] {
  const out: TreeNode[] = [];
  for (const n of tree) {
    if (n.id === id) {
      const next = fn(n);
      if (next) out.push(next);
    } else {
      out.push(n.children.length > 0 ? { ...n, children: updateNode(n.children, id, fn) } : n);
    }
  }
  return out;
}

/** The index of the top-level question a node sits under, or -1. */
export function topIndexOf(tree: TreeNode[], id: string): number {
  const has = (n: TreeNode): boolean => n.id === id || n.children.some(has);
  return tree.findIndex(has);
}

/** Section 4: 'Ask new question' adds a child question; leaving it drops the child; 'Ask next question' appends one. */
export function setAction(tree: TreeNode[], answerId: string, action: string): TreeNode[] {
  let next = updateNode(tree, answerId, (a) => {
    const children = action === 'new' ? (a.action === 'new' && a.children.length > 0 ? a.children : [newQuestion()]) : [];
    const node: TreeNode = { ...a, action, children };
    if (action === 'customResponse') node.customResponseText = a.customResponseText ?? '';
    else delete node.customResponseText;
    return node;
  });
  if (action === 'next' && topIndexOf(next, answerId) === next.length - 1) next = [...next, newQuestion()];
  return next;
}

/** Moves `activeId` to the place of `overId` when both are siblings; anything else leaves the tree as it is. */
export function moveSibling(tree: TreeNode[], activeId: string, overId: string): TreeNode[] {
  const move = (list: TreeNode[]): TreeNode[] | null => {
    const from = list.findIndex((n) => n.id === activeId);
    const to = list.findIndex((n) => n.id === overId);
    if (from >= 0 && to >= 0) {
      const copy = [...list];
      const [item] = copy.splice(from, 1);
      if (item) copy.splice(to, 0, item);
      return copy;
    }
    for (let i = 0; i < list.length; i += 1) {
      const node = list[i] as TreeNode;
      const inner = move(node.children);
      if (inner) return list.map((n, j) => (j === i ? { ...node, children: inner } : n));
    }
    return null;
  };
  return move(tree) ?? tree;
}

/** Each node's parent id ('' for top-level questions). */
export function parentsOf(tree: TreeNode[]): Map<string, string> {
  const map = new Map<string, string>();
  const walk = (nodes: TreeNode[], parent: string) => {
    for (const n of nodes) {
      map.set(n.id, parent);
      walk(n.children, n.id);
    }
  };
  walk(tree, '');
  return map;
}

/** What a screen reader calls each node while it is dragged: "question Sales or support?", "answer Sales". */
export function namesOf(tree: TreeNode[]): Map<string, string> {
  const map = new Map<string, string>();
  const walk = (nodes: TreeNode[]) => {
    for (const n of nodes) {
      map.set(n.id, `${n.isQ ? 'question' : 'answer'} ${n.text.trim() || '(empty)'}`);
      walk(n.children);
    }
  };
  walk(tree);
  return map;
}

export type GroupDraft = { label: string; shortcut: string; auto: boolean; prompt: string; tag: string; tree: TreeNode[] };
export type GroupErrors = { label?: string; prompt?: string; nodes: Record<string, { text?: string; action?: string }>; tree?: string };

/** Section 5: label required, prompt at most 1024 characters, every text required, every answer an action. */
export function groupErrors(g: GroupDraft): GroupErrors {
  const errors: GroupErrors = { nodes: {} };
  if (g.label.trim() === '') errors.label = QG_MESSAGES.required;
  if (g.prompt.length > QUESTION_GROUP_LIMITS.promptChars) errors.prompt = QG_MESSAGES.promptTooLong;
  const walk = (n: TreeNode) => {
    const e: { text?: string; action?: string } = {};
    if (n.text.trim() === '') e.text = QG_MESSAGES.required;
    if (!n.isQ && (n.action === undefined || n.action === null)) e.action = QG_MESSAGES.selectOption;
    if (e.text || e.action) errors.nodes[n.id] = e;
    n.children.forEach(walk);
  };
  g.tree.forEach(walk);
  if (!g.tree.some((q) => q.children.length > 0)) errors.tree = 'Add at least one question with an answer.';
  return errors;
}

export function hasErrors(e: GroupErrors): boolean {
  return Boolean(e.label || e.prompt || e.tree || Object.keys(e.nodes).length > 0);
}
