import { describe, expect, it } from 'vitest';
import { deepLinkFromArgv, parseDeepLink } from './deep-link';

describe('parseDeepLink', () => {
  it('reads a task id from worktray:// and app:// task links', () => {
    expect(parseDeepLink('worktray://task/123')).toEqual({ taskId: 123 });
    expect(parseDeepLink('worktray://task/123/')).toEqual({ taskId: 123 });
    expect(parseDeepLink('worktray:///task/9')).toEqual({ taskId: 9 });
    expect(parseDeepLink('app://task/77')).toEqual({ taskId: 77 });
    expect(parseDeepLink('WORKTRAY://TASK/5')).toEqual({ taskId: 5 });
  });

  it('refuses anything that is not exactly a positive task id', () => {
    for (const url of [
      'worktray://task/0',
      'worktray://task/-3',
      'worktray://task/12abc',
      'worktray://task/1.5',
      'worktray://task/99999999999999999',
      'worktray://task/',
      'worktray://task/1/2',
      'worktray://project/1',
      'app://worktray/index.html',
      'https://task/1',
      'task/1',
      '',
    ])
      expect(parseDeepLink(url), url).toBeNull();
  });
});

describe('deepLinkFromArgv', () => {
  it('finds the link among the launch arguments, the last one winning', () => {
    expect(
      deepLinkFromArgv(['/opt/Worktray/worktray', '--no-sandbox', 'worktray://task/4']),
    ).toEqual({ taskId: 4 });
    expect(deepLinkFromArgv(['x', 'worktray://task/4', 'worktray://task/8'])).toEqual({
      taskId: 8,
    });
    expect(deepLinkFromArgv(['x', 'app://task/4', '--flag=worktray://task/3'])).toBeNull();
  });
});
