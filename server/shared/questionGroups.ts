/**
 * Question groups (settings-and-reports.md sections 3, 4, 5 and 9), shared by the API and the console: the
 * input shape, the tree normalisation applied on save, and the validation messages.
 *
 * The tree (treeJson) is a list of top-level questions. A question's children are its answers; an answer
 * with action `new` has one child question (asked when the visitor picks it). Answer actions: '' (end of the
 * group), new, next (the next top-level question), form (ask for the visitor's e-mail), customResponse (show
 * customResponseText), or a widget Uuid (chat in that room).
 */
import { z } from 'zod';
import { optionalTagSchema } from './tagSchema';

export const QUESTION_GROUP_LIMITS = {
  promptChars: 1024,
  labelChars: 200,
  shortcutChars: 50,
  textChars: 500,
  customResponseChars: 2000,
  treeJsonChars: 100_000,
  depth: 10,
  /** Lengths of generated identifiers. */
  groupUidChars: 10,
  nodeIdChars: 13,
} as const;

/** Tags a prompt or a custom response may keep; everything else is removed when saved. */
export const QUESTION_GROUP_ALLOWED_TAGS = ['a', 'strong', 'b', 'br'] as const;

export const QG_MESSAGES = {
  required: 'Required.',
  promptTooLong: `Exceeds ${QUESTION_GROUP_LIMITS.promptChars} characters.`,
  selectOption: 'Select an option.',
} as const;

export const ANSWER_ACTIONS = ['', 'new', 'next', 'form', 'customResponse'] as const;

export type TreeNode = {
  id: string;
  text: string;
  isQ: boolean;
  expanded?: boolean;
  children: TreeNode[];
  /** Answers only; undefined means no option was chosen yet. */
  action?: string;
  customResponseText?: string;
};

export type TreeNodeInput = {
  id?: string;
  text?: string;
  isQ: boolean;
  expanded?: boolean;
  children?: TreeNodeInput[];
  action?: string | null;
  customResponseText?: string;
};

export const TreeNodeSchema: z.ZodType<TreeNodeInput> = z.lazy(() =>
  z.object({
    id: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9_-]*$/, 'Node ids are letters, digits, _ and -.')
      .optional(),
    text: z.string().max(QUESTION_GROUP_LIMITS.textChars).optional(),
    isQ: z.boolean(),
    expanded: z.boolean().optional(),
    children: z.array(TreeNodeSchema).max(50).optional(),
    // '' ends the group; a widget Uuid is letters, digits and dashes.
    action: z
      .string()
      .max(64)
      .regex(/^[A-Za-z0-9_-]*$/, 'Unknown action.')
      .nullable()
      .optional(),
    customResponseText: z.string().max(QUESTION_GROUP_LIMITS.customResponseChars).optional(),
  }),
);

export const QuestionGroupInputSchema = z.object({
  uid: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'uid: Letters and digits only.')
    .optional(),
  accountId: z.string().max(64).optional(),
  label: z.string().max(QUESTION_GROUP_LIMITS.labelChars, `label: At most ${QUESTION_GROUP_LIMITS.labelChars} characters.`).default(''),
  shortcut: z
    .string()
    .trim()
    .max(QUESTION_GROUP_LIMITS.shortcutChars, `shortcut: At most ${QUESTION_GROUP_LIMITS.shortcutChars} characters.`)
    .regex(/^[^\s]*$/, 'shortcut: One word, without spaces.')
    .default(''),
  prompt: z
    .string()
    .max(QUESTION_GROUP_LIMITS.promptChars * 4, `prompt: ${QG_MESSAGES.promptTooLong}`)
    .default(''),
  auto: z.boolean({ error: 'auto: Must be true or false.' }).default(false),
  treeJson: z.string().max(QUESTION_GROUP_LIMITS.treeJsonChars, 'treeJson: The tree is too large.').default('[]'),
  /** A tag (of the widgets' lists) a conversation gets when its visitor answers this group; '' (the default) for none. */
  tag: optionalTagSchema,
});
export type QuestionGroupInput = z.infer<typeof QuestionGroupInputSchema>;

/** A question group as the API answers it. */
export type QuestionGroupView = {
  uid: string;
  accountId: string;
  label: string;
  shortcut: string;
  auto: boolean;
  prompt: string;
  treeJson: string;
  tag: string;
};

export type FieldError = { path: string; message: string };

/** Parses treeJson into nodes, or a field error. */
export function parseTree(treeJson: string): { nodes: TreeNodeInput[] } | { error: FieldError } {
  let raw: unknown;
  try {
    raw = JSON.parse(treeJson || '[]');
  } catch {
    return { error: { path: 'treeJson', message: 'Not valid JSON.' } };
  }
  const parsed = z.array(TreeNodeSchema).max(50).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      error: { path: `treeJson${issue?.path.length ? `.${issue.path.join('.')}` : ''}`, message: issue?.message ?? 'Invalid tree.' },
    };
  }
  return { nodes: parsed.data };
}

/**
 * The save-time normalisation of section 4: a question with no answers is removed; an answer with a
 * question under it gets action new (and one with action new but no question left ends the group); a next
 * with no following top-level question reverts to empty. Missing node ids are generated with `newId`.
 */
export function normaliseTree(nodes: TreeNodeInput[], newId: () => string): TreeNode[] {
  const questions = (list: TreeNodeInput[] | undefined, depth: number): TreeNode[] =>
    depth > QUESTION_GROUP_LIMITS.depth
      ? []
      : (list ?? [])
          .filter((n) => n.isQ)
          .map((q) => ({
            id: q.id || newId(),
            text: q.text ?? '',
            isQ: true,
            ...(q.expanded !== undefined ? { expanded: q.expanded } : {}),
            children: answers(q.children, depth),
          }))
          .filter((q) => q.children.length > 0);
  const answers = (list: TreeNodeInput[] | undefined, depth: number): TreeNode[] =>
    (list ?? [])
      .filter((n) => !n.isQ)
      .map((a) => {
        const children = questions(a.children, depth + 1).slice(0, 1);
        let action = a.action ?? undefined;
        if (children.length > 0) action = 'new';
        else if (action === 'new') action = '';
        const node: TreeNode = {
          id: a.id || newId(),
          text: a.text ?? '',
          isQ: false,
          children,
          ...(action !== undefined ? { action } : {}),
        };
        if (a.expanded !== undefined) node.expanded = a.expanded;
        if (action === 'customResponse') node.customResponseText = a.customResponseText ?? '';
        return node;
      });
  const top = questions(nodes, 0);
  const last = top[top.length - 1];
  if (last) {
    const walk = (n: TreeNode) => {
      if (!n.isQ && n.action === 'next') n.action = '';
      n.children.forEach(walk);
    };
    walk(last);
  }
  return top;
}

/** Validation of section 5 on a normalised group; the first problem comes first. */
export function questionGroupErrors(group: { label: string; prompt: string; tree: TreeNode[] }): FieldError[] {
  const errors: FieldError[] = [];
  if (!group.label.trim()) errors.push({ path: 'label', message: QG_MESSAGES.required });
  if (group.prompt.length > QUESTION_GROUP_LIMITS.promptChars) errors.push({ path: 'prompt', message: QG_MESSAGES.promptTooLong });
  if (group.tree.length === 0) errors.push({ path: 'treeJson', message: 'Add at least one question with an answer.' });
  const walk = (n: TreeNode, path: string) => {
    if (!n.text.trim()) errors.push({ path: `${path}.text`, message: QG_MESSAGES.required });
    if (!n.isQ && n.action === undefined) errors.push({ path: `${path}.action`, message: QG_MESSAGES.selectOption });
    n.children.forEach((c, i) => walk(c, `${path}.children[${i}]`));
  };
  group.tree.forEach((n, i) => walk(n, `treeJson[${i}]`));
  return errors;
}

/** Finds a node and the index of the top-level question it sits under. */
export function findNode(tree: TreeNode[], id: string): { node: TreeNode; parent: TreeNode | null; top: number } | null {
  const visit = (n: TreeNode, parent: TreeNode | null, top: number): { node: TreeNode; parent: TreeNode | null; top: number } | null => {
    if (n.id === id) return { node: n, parent, top };
    for (const c of n.children) {
      const found = visit(c, n, top);
      if (found) return found;
    }
    return null;
  };
  for (let i = 0; i < tree.length; i += 1) {
    const found = visit(tree[i] as TreeNode, null, i);
    if (found) return found;
  }
  return null;
}
