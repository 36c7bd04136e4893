/**
 * The draggable tree of questions and answers, with connecting lines. Drag and drop is @dnd-kit's sortable
 * lists, one per level: a node moves among its siblings, by pointer or by keyboard (focus the handle, Space,
 * arrows, Space), with a drop-zone placeholder where it will land. Questions collapse and expand.
 */
import {
  type CollisionDetection,
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { ReactNode } from 'react';
import type { TreeNode } from '../../../../../server/shared/questionGroups';
import { ChevronDownIcon, PlusIcon } from '../../../components/icons';
import { TrashIcon } from '../../../components/moreIcons';
import { type GroupErrors, moveSibling, namesOf, newAnswer, parentsOf, setAction, updateNode } from './tree';

/** Another room an answer can send the visitor to; `name` as the console shows it, with its # ('#support'). */
export type RoomChoice = { uuid: string; name: string };

type TreeProps = {
  tree: TreeNode[];
  onChange: (tree: TreeNode[]) => void;
  errors: GroupErrors['nodes'];
  rooms: RoomChoice[];
};

export function QuestionTree({ tree, onChange, errors, rooms }: TreeProps) {
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const parents = parentsOf(tree);
  const names = namesOf(tree);
  const name = (id: string | number) => names.get(String(id)) ?? 'item';
  // A node moves among its siblings only: other levels are not drop targets while it is dragged.
  const siblingsOnly: CollisionDetection = (args) =>
    closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter((c) => parents.get(String(c.id)) === parents.get(String(args.active.id))),
    });
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over && active.id !== over.id) onChange(moveSibling(tree, String(active.id), String(over.id)));
  };
  const ctx: NodeCtx = { tree, onChange, errors, rooms };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={siblingsOnly}
      onDragEnd={onDragEnd}
      accessibility={{
        screenReaderInstructions: {
          draggable:
            'To move this item, press Space. Use the arrow keys to move it among its siblings, Space to drop it, Escape to cancel.',
        },
        announcements: {
          onDragStart: ({ active }) => `Picked up ${name(active.id)}.`,
          onDragOver: ({ active, over }) =>
            over?.id === active.id
              ? undefined
              : over
                ? `${name(active.id)} is over ${name(over.id)}.`
                : `${name(active.id)} is no longer over a place to drop.`,
          onDragEnd: ({ active, over }) =>
            over ? `${name(active.id)} was dropped at the place of ${name(over.id)}.` : `${name(active.id)} was dropped.`,
          onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled.`,
        },
      }}
    >
      <Level nodes={tree} ctx={ctx} />
    </DndContext>
  );
}

type NodeCtx = TreeProps;

function Level({ nodes, ctx }: { nodes: TreeNode[]; ctx: NodeCtx }) {
  return (
    <SortableContext items={nodes.map((n) => n.id)} strategy={verticalListSortingStrategy}>
      <ul className="qtree__level">
        {nodes.map((n) => (n.isQ ? <QuestionNode key={n.id} node={n} ctx={ctx} /> : <AnswerNode key={n.id} node={n} ctx={ctx} />))}
      </ul>
    </SortableContext>
  );
}

function Sortable({
  id,
  className,
  label,
  children,
}: {
  id: string;
  className: string;
  label: string;
  children: (handle: ReactNode) => ReactNode;
}) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const handle = (
    <button type="button" className="qtree__handle" ref={setActivatorNodeRef} {...attributes} {...listeners} aria-label={`Move ${label}`}>
      <span aria-hidden="true">⠿</span>
    </button>
  );
  return (
    <li
      ref={setNodeRef}
      className={`${className}${isDragging ? ' qtree__node--dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      {children(handle)}
    </li>
  );
}

function QuestionNode({ node, ctx }: { node: TreeNode; ctx: NodeCtx }) {
  const { tree, onChange } = ctx;
  const expanded = node.expanded !== false;
  const label = node.text.trim() || 'question';
  return (
    <Sortable id={node.id} className="qtree__node qtree__node--q" label={`question ${label}`}>
      {(handle) => (
        <>
          <div className="qtree__row">
            {handle}
            <button
              type="button"
              className={`qtree__fold${expanded ? '' : ' qtree__fold--closed'}`}
              aria-expanded={expanded}
              aria-label={expanded ? `Collapse ${label}` : `Expand ${label}`}
              onClick={() => onChange(updateNode(tree, node.id, (n) => ({ ...n, expanded: !expanded })))}
            >
              <ChevronDownIcon />
            </button>
            <span className="qtree__kind">Q</span>
            <NodeText node={node} ctx={ctx} name="Question" />
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove ${label}`}
              onClick={() => onChange(updateNode(tree, node.id, () => null))}
            >
              <TrashIcon />
            </button>
          </div>
          {expanded && (
            <div className="qtree__children">
              <Level nodes={node.children} ctx={ctx} />
              <button
                type="button"
                className="link-button qtree__add"
                onClick={() => onChange(updateNode(tree, node.id, (n) => ({ ...n, children: [...n.children, newAnswer()] })))}
              >
                <PlusIcon /> Add answer
              </button>
            </div>
          )}
        </>
      )}
    </Sortable>
  );
}

/** A question's or an answer's text, with its error under it. */
function NodeText({ node, ctx, name }: { node: TreeNode; ctx: NodeCtx; name: 'Question' | 'Answer' }) {
  const { tree, onChange, errors } = ctx;
  const error = errors[node.id];
  return (
    <div className={`qtree__field${error?.text ? ' field--invalid' : ''}`}>
      <input
        className="field__input"
        value={node.text}
        placeholder={name}
        aria-label={name}
        aria-invalid={error?.text ? true : undefined}
        onChange={(e) => onChange(updateNode(tree, node.id, (n) => ({ ...n, text: e.target.value })))}
      />
      {error?.text && <p className="field__error">{error.text}</p>}
    </div>
  );
}

function AnswerNode({ node, ctx }: { node: TreeNode; ctx: NodeCtx }) {
  const { tree, onChange, errors, rooms } = ctx;
  const error = errors[node.id];
  const label = node.text.trim() || 'answer';
  const action = node.action ?? null;
  return (
    <Sortable id={node.id} className="qtree__node qtree__node--a" label={`answer ${label}`}>
      {(handle) => (
        <>
          <div className="qtree__row">
            {handle}
            <span className="qtree__kind qtree__kind--a">A</span>
            <NodeText node={node} ctx={ctx} name="Answer" />
            <div className={`qtree__field qtree__action${error?.action ? ' field--invalid' : ''}`}>
              <select
                className="field__input field__select"
                aria-label="Then"
                value={action === null ? '-' : action}
                aria-invalid={error?.action ? true : undefined}
                onChange={(e) => onChange(setAction(tree, node.id, e.target.value))}
              >
                {action === null && <option value="-">Then…</option>}
                <option value="">End the questions</option>
                <option value="new">Ask new question</option>
                <option value="next">Ask next question</option>
                <option value="form">Ask for e-mail</option>
                <option value="customResponse">Show a custom response</option>
                {rooms.map((r) => (
                  <option key={r.uuid} value={r.uuid}>
                    Chat in {r.name}
                  </option>
                ))}
              </select>
              {error?.action && <p className="field__error">{error.action}</p>}
            </div>
            <button
              type="button"
              className="icon-btn"
              aria-label={`Remove ${label}`}
              onClick={() => onChange(updateNode(tree, node.id, () => null))}
            >
              <TrashIcon />
            </button>
          </div>
          {action === 'customResponse' && (
            <div className="qtree__custom">
              <textarea
                className="field__input"
                rows={2}
                aria-label="Custom response"
                placeholder="What the visitor sees: **bold**, _italic_, [link](https://…)"
                value={node.customResponseText ?? ''}
                onChange={(e) => onChange(updateNode(tree, node.id, (n) => ({ ...n, customResponseText: e.target.value })))}
              />
            </div>
          )}
          {node.children.length > 0 && (
            <div className="qtree__children">
              <Level nodes={node.children} ctx={ctx} />
            </div>
          )}
        </>
      )}
    </Sortable>
  );
}
