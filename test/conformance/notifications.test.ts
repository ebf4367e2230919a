/**
 * Notifications and Mentions against the reference server, through the typed client. Rows are
 * written with SQL here (the task routes create them in production): newest-first paging, the
 * unreadOnly filter, mark-read and its unread count, delete, and scoping by user and org.
 */
import { describe, expect, it } from 'vitest';
import { failure, insertNotification, rawCaller } from '../support/fixtures-items';
import { aliceBobCarol, signedIn, suiteServer } from './support';

describe('Notifications and Mentions', () => {
  const ctx = suiteServer({ ...aliceBobCarol, aliceInGlobex: signedIn('alice', 'globex') });
  const base = Date.parse('2025-01-01T00:00:00Z');

  /** 25 rows for alice in Acme, one a minute; every third one already read. Plus others' rows. */
  const seed = () => {
    const { db } = ctx.server.deps;
    db.prepare('DELETE FROM notifications').run();
    const acmeAlice = { orgId: ctx.server.orgs.acme, userId: ctx.server.users.alice };
    const ids: number[] = [];
    for (let i = 0; i < 25; i++)
      ids.push(
        insertNotification(db, acmeAlice, {
          type: i % 2 === 0 ? 'ASSIGNED' : 'MENTION',
          title: `n${i}`,
          body: `body ${i}`,
          read: i % 3 === 0,
          createdTime: base + i * 60_000,
        }),
      );
    // Same created time as n24: the id breaks the tie (newer id first).
    const tie = insertNotification(db, acmeAlice, {
      title: 'tie',
      createdTime: base + 24 * 60_000,
    });
    const bobs = insertNotification(
      db,
      { orgId: ctx.server.orgs.acme, userId: ctx.server.users.bob },
      { title: 'bob', createdTime: base },
    );
    const globex = insertNotification(
      db,
      { orgId: ctx.server.orgs.globex, userId: ctx.server.users.alice },
      { title: 'globex', createdTime: base },
    );
    return { ids, tie, bobs, globex };
  };

  it('lists the caller’s notifications newest first, paged', async () => {
    const { ids, tie } = seed();
    const first = await ctx.alice.ops.getNotifications();
    expect(first).toMatchObject({
      totalElements: 26,
      totalPages: 2,
      size: 20,
      number: 0,
      first: true,
      last: false,
      numberOfElements: 20,
    });
    expect(first.content.slice(0, 3).map((n) => n.title)).toEqual(['tie', 'n24', 'n23']);
    expect(first.content[0]?.notificationId).toBe(tie);
    expect(first.content[1]).toMatchObject({
      notificationId: ids[24],
      type: 'ASSIGNED',
      body: 'body 24',
      read: true,
      createdTime: new Date(base + 24 * 60_000).toISOString(),
    });
    const second = await ctx.alice.ops.getNotifications({ query: { page: 1 } });
    expect(second).toMatchObject({ number: 1, last: true, numberOfElements: 6 });
    expect(second.content.map((n) => n.title)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1', 'n0']);
    const small = await ctx.alice.ops.getNotifications({ query: { page: 2, size: 10 } });
    expect(small.content.map((n) => n.title)).toEqual(['n5', 'n4', 'n3', 'n2', 'n1', 'n0']);
    expect(small.totalPages).toBe(3);
    const past = await ctx.alice.ops.getNotifications({ query: { page: 9, size: 10 } });
    expect(past).toMatchObject({ empty: true, numberOfElements: 0, totalElements: 26 });
    // Nobody else's rows, in either direction.
    expect((await ctx.bob.ops.getNotifications()).content.map((n) => n.title)).toEqual(['bob']);
    expect((await ctx.aliceInGlobex.ops.getNotifications()).content.map((n) => n.title)).toEqual([
      'globex',
    ]);
    expect((await ctx.carol.ops.getNotifications()).totalElements).toBe(0);
  });

  it('unreadOnly=true lists only unread ones', async () => {
    seed();
    const unread = await ctx.alice.ops.getNotifications({ query: { unreadOnly: true, size: 100 } });
    // n0, n3, …, n24 are read: 9 of 25; plus the unread tie.
    expect(unread.totalElements).toBe(17);
    expect(unread.content.every((n) => !n.read)).toBe(true);
    expect(unread.content.map((n) => n.title).slice(0, 3)).toEqual(['tie', 'n23', 'n22']);
    const all = await ctx.alice.ops.getNotifications({ query: { unreadOnly: false, size: 100 } });
    expect(all.totalElements).toBe(26);
  });

  it('refuses a bad page or size', async () => {
    const raw = await rawCaller(ctx.server, 'alice', 'acme');
    expect((await raw('GET', '/v1/notifications?page=-1')).status).toBe(400);
    expect((await raw('GET', '/v1/notifications?size=0')).status).toBe(400);
    expect((await raw('GET', '/v1/notifications?unreadOnly=maybe')).status).toBe(400);
  });

  it('marks one read, answers the unread count, and is idempotent', async () => {
    const { ids } = seed();
    const target = ids[23]!;
    const answer = await ctx.alice.ops.markNotificationAsRead({ path: { notificationId: target } });
    expect(answer).toEqual({ notificationId: target, read: true, unreadCount: 16 });
    const again = await ctx.alice.ops.markNotificationAsRead({ path: { notificationId: target } });
    expect(again).toEqual({ notificationId: target, read: true, unreadCount: 16 });
    // An already read one: nothing changes.
    expect(
      (await ctx.alice.ops.markNotificationAsRead({ path: { notificationId: ids[0]! } }))
        .unreadCount,
    ).toBe(16);
    const listed = (await ctx.alice.ops.getNotifications({ query: { size: 100 } })).content.find(
      (n) => n.notificationId === target,
    );
    expect(listed?.read).toBe(true);
    expect(
      (await ctx.alice.ops.getNotifications({ query: { unreadOnly: true } })).totalElements,
    ).toBe(16);
  });

  it('another user’s or org’s notification is a 404 to mark and to delete, and stays as it was', async () => {
    const { ids, bobs, globex } = seed();
    const unreadOfAlice = ids[1]!;
    const errors = await Promise.all([
      failure(ctx.bob.ops.markNotificationAsRead({ path: { notificationId: unreadOfAlice } })),
      failure(
        ctx.aliceInGlobex.ops.markNotificationAsRead({ path: { notificationId: unreadOfAlice } }),
      ),
      failure(ctx.carol.ops.markNotificationAsRead({ path: { notificationId: unreadOfAlice } })),
      failure(ctx.alice.ops.markNotificationAsRead({ path: { notificationId: bobs } })),
      failure(ctx.alice.ops.markNotificationAsRead({ path: { notificationId: globex } })),
      failure(ctx.alice.ops.markNotificationAsRead({ path: { notificationId: 999_999 } })),
      failure(ctx.bob.ops.deleteNotification({ path: { notificationId: unreadOfAlice } })),
      failure(
        ctx.aliceInGlobex.ops.deleteNotification({ path: { notificationId: unreadOfAlice } }),
      ),
      failure(ctx.alice.ops.deleteNotification({ path: { notificationId: globex } })),
    ]);
    expect(errors.map((e) => e.status)).toEqual(Array(9).fill(404));
    const row = ctx.server.deps.db
      .prepare('SELECT read FROM notifications WHERE notification_id = ?')
      .get(unreadOfAlice);
    expect(row).toEqual({ read: 0 });
    expect((await ctx.bob.ops.getNotifications()).content.map((n) => n.read)).toEqual([false]);
  });

  it('deletes one: answers {} and it is gone from the list and the count', async () => {
    const { ids } = seed();
    const target = ids[24]!;
    expect(await ctx.alice.ops.deleteNotification({ path: { notificationId: target } })).toEqual(
      {},
    );
    const list = await ctx.alice.ops.getNotifications({ query: { size: 100 } });
    expect(list.totalElements).toBe(25);
    expect(list.content.map((n) => n.notificationId)).not.toContain(target);
    expect(
      (await failure(ctx.alice.ops.deleteNotification({ path: { notificationId: target } })))
        .status,
    ).toBe(404);
    expect(
      (await failure(ctx.alice.ops.markNotificationAsRead({ path: { notificationId: target } })))
        .status,
    ).toBe(404);
    // n24 was read, so the unread count is unchanged by its removal.
    expect(
      (await ctx.alice.ops.markNotificationAsRead({ path: { notificationId: ids[0]! } }))
        .unreadCount,
    ).toBe(17);
  });
});
