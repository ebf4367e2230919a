import type { ClientRect, DroppableContainer, UniqueIdentifier } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import { boardAnnouncements, columnStep, nearestColumn } from './board-moves';

/** Three columns of 272 px with 12 px between, as the board lays them out. */
const rect = (left: number, width = 272): ClientRect => ({
  left,
  width,
  top: 50,
  height: 600,
  right: left + width,
  bottom: 650,
});
const columns: [UniqueIdentifier, ClientRect][] = [
  ['column:Open', rect(16)],
  ['column:In Progress', rect(300)],
  ['column:Done', rect(584)],
];
const containers = columns.map(
  ([id]) => ({ id, disabled: false }) as unknown as DroppableContainer,
);
const droppableRects = new Map(columns);
const enabled = Object.assign([...containers], { getEnabled: () => containers });

const card = (left: number) => rect(left, 250);

describe('nearestColumn', () => {
  it('picks the column nearest the card’s middle, nearest first', () => {
    const hits = nearestColumn({
      active: {
        id: 1,
        data: { current: undefined },
        rect: { current: { initial: null, translated: null } },
      },
      collisionRect: card(330),
      droppableContainers: containers,
      droppableRects,
      pointerCoordinates: null,
    });
    expect(hits.map((h) => h.id)).toEqual(['column:In Progress', 'column:Done', 'column:Open']);
  });
});

describe('columnStep', () => {
  const press = (code: string, left: number) => {
    let prevented = false;
    const event = { code, preventDefault: () => (prevented = true) } as unknown as KeyboardEvent;
    const to = columnStep(event, {
      active: 1,
      currentCoordinates: { x: left, y: 80 },
      context: {
        collisionRect: card(left),
        droppableRects,
        droppableContainers: enabled,
      } as never,
    });
    return { to, prevented };
  };

  it('carries the card to the middle of the next or previous column, keeping its height', () => {
    expect(press('ArrowRight', 27).to).toEqual({ x: 300 + 136 - 125, y: 80 });
    expect(press('ArrowLeft', 311).to).toEqual({ x: 16 + 136 - 125, y: 80 });
    expect(press('ArrowRight', 311).prevented).toBe(true);
  });

  it('goes nowhere past the last column, nor up or down', () => {
    expect(press('ArrowRight', 595).to).toBeUndefined();
    expect(press('ArrowLeft', 27).to).toBeUndefined();
    const down = press('ArrowDown', 311);
    expect(down.to).toBeUndefined();
    // The page must not scroll under a picked-up card.
    expect(down.prevented).toBe(true);
  });
});

describe('boardAnnouncements', () => {
  const active = { id: 5, data: { current: { title: 'Write the spec', status: 'Open' } } } as never;
  const over = (status: string) =>
    ({ id: `column:${status}`, data: { current: { status } } }) as never;
  it('says each step of a move in the board’s words, each column once', () => {
    const say = boardAnnouncements();
    expect(say.onDragStart({ active })).toBe('Picked up Write the spec, in Open.');
    // Where it starts was just said: the first "over" would only overwrite it.
    expect(say.onDragOver({ active, over: over('Open') })).toBeUndefined();
    expect(say.onDragOver({ active, over: over('Done') })).toBe('Write the spec is over Done.');
    expect(say.onDragOver({ active, over: over('Done') })).toBeUndefined();
    expect(say.onDragOver({ active, over: over('Open') })).toBe('Write the spec is over Open.');
    expect(say.onDragEnd({ active, over: over('Done') })).toBe('Write the spec moved to Done.');
    expect(say.onDragEnd({ active, over: over('Open') })).toBe('Write the spec stays in Open.');
    expect(say.onDragCancel({ active, over: null })).toBe(
      'Move cancelled: Write the spec stays in Open.',
    );
  });
});
