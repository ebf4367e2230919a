import { afterEach, describe, expect, it } from 'vitest';
import { isApiClientError } from '../api';
import type { RawAnswer } from '../api/call';
import { type FillThread, startFillThread } from './fill-thread';
import { decodeStagePage, peekCursor } from './page-decode';
import { openPageDecoder } from './page-decoder';

const task = (taskId: number, extra: Record<string, unknown> = {}) => ({
  taskId,
  taskTitle: `Task ${taskId}`,
  projectId: 7,
  status: 'To Do',
  tags: ['red'],
  owners: [{ userId: 3, firstName: 'Ann' }],
  dueDate: '2026-01-02T10:00:00Z',
  createdBy: { userId: 4, firstName: 'Bo' },
  customFields: [
    {
      taskCustomFieldId: 11,
      fieldName: 'Size',
      fieldType: 'NUMBER',
      fieldValue: [{ taskId, value: taskId * 2 }],
    },
  ],
  checklists: [{ checklistId: taskId * 10, name: 'step', completed: false, position: 0 }],
  attachments: [],
  ...extra,
});

const envelope = (data: unknown) => ({
  success: true,
  message: 'OK',
  code: 200,
  data,
  timestamp: '2026-01-01T00:00:00Z',
});

const answer = (json: unknown, status = 200): RawAnswer => ({
  operationId: 'bulkTasks',
  response: { status, headers: {}, body: Buffer.from(JSON.stringify(json)) },
  receivedAt: 1,
});

const page = (items: unknown[], nextCursor: string | null = 'next-1') =>
  envelope({ items, nextCursor, serverTime: 1_700_000_000_000 });

let thread: FillThread | null = null;
afterEach(async () => {
  await thread?.close();
  thread = null;
});
const threaded = () => {
  thread = startFillThread();
  return openPageDecoder(thread);
};

describe('page decoder', () => {
  it('decodes on its worker thread exactly what the writing thread would', async () => {
    const decoder = threaded();
    expect(decoder.threaded).toBe(true);
    const items = [task(9), task(2), { taskId: 5, taskTitle: 'gone', deleted: true }];
    const pending = decoder.decode(answer(page(items)));
    expect(await pending.cursor).toBe('next-1');
    const decoded = await pending.page;
    expect(decoded).toEqual(
      decodeStagePage({
        status: 200,
        body: Buffer.from(JSON.stringify(page(items))),
        receivedAt: 1,
      }),
    );
    expect(decoded.ids).toEqual([9, 2, 5]);
    expect(decoded.page.dead).toEqual([5]);
    expect(decoded.page.upserted).toBe(2);
    expect(decoded.page.shared.users.map((u) => u.userId).sort()).toEqual([3, 4]);
    // Staged in task id order.
    const staged = JSON.parse(decoded.page.staged ?? '[]') as [unknown[]][];
    expect(staged.map((s) => s[0][0])).toEqual([2, 9]);
  });

  it('answers pages in the order asked, the last one without a cursor', async () => {
    const decoder = threaded();
    const a = decoder.decode(answer(page([task(1)], 'c1')));
    const b = decoder.decode(answer(page([task(2)], null)));
    expect(await b.cursor).toBeNull();
    expect((await a.page).ids).toEqual([1]);
    expect((await b.page).ids).toEqual([2]);
  });

  it.each([
    ['threaded', false],
    ['inline', true],
  ])('refuses a page that breaks the contract as a bad response (%s)', async (_, inline) => {
    const decoder = inline ? openPageDecoder(null) : threaded();
    expect(decoder.threaded).toBe(!inline);
    const bad = decoder.decode(answer(page([task(1), { taskId: 'two', taskTitle: 3 }])));
    const error = await bad.page.catch((e: unknown) => e);
    expect(isApiClientError(error)).toBe(true);
    expect(error).toMatchObject({ kind: 'bad-response', operationId: 'bulkTasks' });
    expect((error as Error).message).toMatch(/does not match the contract/);
    const notJson = decoder.decode({
      ...answer(null),
      response: { status: 200, headers: {}, body: Buffer.from('{"success":') },
    });
    await expect(notJson.cursor).rejects.toMatchObject({ kind: 'bad-response' });
    // The decoder goes on with the next page.
    expect((await decoder.decode(answer(page([task(3)]))).page).ids).toEqual([3]);
  });

  it('copies a body that shares its buffer instead of moving it away', async () => {
    const decoder = threaded();
    const bytes = Buffer.from(JSON.stringify(page([task(4)])));
    const shared = new Uint8Array(bytes.byteLength + 16);
    shared.set(bytes, 8);
    const body = shared.subarray(8, 8 + bytes.byteLength);
    const decoded = await decoder.decode({
      ...answer(null),
      response: { status: 200, headers: {}, body },
    }).page;
    expect(decoded.ids).toEqual([4]);
    expect(shared.byteLength).toBe(bytes.byteLength + 16);
    expect(Buffer.from(body).equals(bytes)).toBe(true);
  });

  it('decodes on the calling thread once the worker has stopped', async () => {
    const decoder = threaded();
    await thread?.close();
    expect(decoder.threaded).toBe(false);
    expect((await decoder.decode(answer(page([task(6)]))).page).ids).toEqual([6]);
  });
});

describe('peekCursor', () => {
  const bytes = (json: unknown) => Buffer.from(JSON.stringify(json));

  it("reads the page's nextCursor from the answer's last bytes, a string or null", () => {
    expect(peekCursor(bytes(page([task(1)], 'eyJ0IjoxfQ')))).toBe('eyJ0IjoxfQ');
    expect(peekCursor(bytes(page([task(1)], null)))).toBeNull();
  });

  it('finds nothing where the key is not in the tail, or only inside a string', () => {
    const cut = bytes(page([task(1)], 'c2'));
    expect(peekCursor(cut.subarray(0, cut.length / 2))).toBeUndefined();
    const decoy = bytes({ data: { items: [], note: '"nextCursor":"x"' }, timestamp: 'now' });
    expect(peekCursor(decoy)).toBeUndefined();
    // A value with an escape is left to the page's check.
    expect(peekCursor(bytes(page([], 'a"b')))).toBeUndefined();
  });
});
