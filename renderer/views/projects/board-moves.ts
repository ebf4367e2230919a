import type {
  Announcements,
  ClientRect,
  CollisionDetection,
  KeyboardCoordinateGetter,
  UniqueIdentifier,
} from '@dnd-kit/core';

/** What a card and a column carry through a drag, for the words said about it. */
export interface CardData {
  title: string;
  status: string | null;
}
export interface ColumnData {
  status: string;
}

const centerX = (r: ClientRect) => r.left + r.width / 2;

/**
 * Columns are side by side and as tall as the board: the one a card is over is the one
 * nearest its middle, left to right, wherever the pointer or the keyboard put it.
 */
export const nearestColumn: CollisionDetection = ({
  collisionRect,
  droppableContainers,
  droppableRects,
}) => {
  const x = centerX(collisionRect);
  return droppableContainers
    .flatMap((c) => {
      const rect = droppableRects.get(c.id);
      return rect && !c.disabled
        ? [{ id: c.id, data: { droppableContainer: c, value: Math.abs(centerX(rect) - x) } }]
        : [];
    })
    .sort((a, b) => a.data.value - b.data.value);
};

/**
 * Left and right arrows carry a picked-up card to the middle of the previous or next column
 * (dnd-kit's default moves 25 px a press); up and down do nothing, a card has no place
 * within its column.
 */
export const columnStep: KeyboardCoordinateGetter = (event, { context, currentCoordinates }) => {
  const step = event.code === 'ArrowRight' ? 1 : event.code === 'ArrowLeft' ? -1 : 0;
  const { collisionRect, droppableRects, droppableContainers } = context;
  if (!collisionRect) return undefined;
  if (event.code === 'ArrowUp' || event.code === 'ArrowDown') event.preventDefault();
  if (step === 0) return undefined;
  event.preventDefault();
  const columns = droppableContainers
    .getEnabled()
    .flatMap((c) => {
      const rect = droppableRects.get(c.id);
      return rect ? [rect] : [];
    })
    .sort((a, b) => a.left - b.left);
  const x = centerX(collisionRect);
  const here = columns.reduce(
    (best, r, i) =>
      Math.abs(centerX(r) - x) < Math.abs(centerX(columns[best] ?? r) - x) ? i : best,
    0,
  );
  const target = columns[here + step];
  if (!target) return undefined;
  return { x: centerX(target) - collisionRect.width / 2, y: currentCoordinates.y };
};

const card = (data: unknown) => data as CardData | undefined;
const column = (data: unknown) => (data as ColumnData | undefined)?.status ?? null;
const nameOf = (status: string | null) => status ?? 'No status';

export const boardInstructions =
  'Space picks the card up; Left and Right arrows carry it to another column; Space drops it ' +
  'there and Escape puts it back. Enter opens the task. Alt with Left or Right arrow moves it ' +
  'one column at once.';

/**
 * What a screen reader hears through a move, in the board's words. A column is named once
 * each time the card gets there: the start already says where it is, and the live region
 * keeps only the latest words.
 */
export function boardAnnouncements(): Announcements {
  let lastOver: UniqueIdentifier | null = null;
  return {
    onDragStart: ({ active }) => {
      const c = card(active.data.current);
      lastOver = c?.status ? columnId(c.status) : null;
      return `Picked up ${c?.title ?? 'the card'}, in ${nameOf(c?.status ?? null)}.`;
    },
    onDragOver: ({ active, over }) => {
      if ((over?.id ?? null) === lastOver) return undefined;
      lastOver = over?.id ?? null;
      const c = card(active.data.current);
      return over
        ? `${c?.title ?? 'The card'} is over ${nameOf(column(over.data.current))}.`
        : `${c?.title ?? 'The card'} is over no column.`;
    },
    onDragEnd: ({ active, over }) => {
      const c = card(active.data.current);
      const to = over ? column(over.data.current) : null;
      if (!to || to === c?.status)
        return `${c?.title ?? 'The card'} stays in ${nameOf(c?.status ?? null)}.`;
      return `${c?.title ?? 'The card'} moved to ${to}.`;
    },
    onDragCancel: ({ active }) => {
      const c = card(active.data.current);
      return `Move cancelled: ${c?.title ?? 'the card'} stays in ${nameOf(c?.status ?? null)}.`;
    },
  };
}

export const columnId = (status: string): UniqueIdentifier => `column:${status}`;
