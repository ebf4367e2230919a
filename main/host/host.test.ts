import { describe, expect, it } from 'vitest';
import { hostConfig } from './host';

describe('hostConfig', () => {
  const base = { dataDir: '/tmp/wt', demoDefault: true };

  it('takes an unset or empty WORKTRAY_SERVER as none, and an http(s) URL as the service', () => {
    expect(hostConfig.parse({ ...base, serverUrl: null }).serverUrl).toBeNull();
    expect(hostConfig.parse({ ...base, serverUrl: '' }).serverUrl).toBeNull();
    expect(hostConfig.parse({ ...base, serverUrl: 'https://work.example.com' }).serverUrl).toBe(
      'https://work.example.com',
    );
  });

  it('refuses a service URL that is not http(s), and a template without its {id}', () => {
    expect(() => hostConfig.parse({ ...base, serverUrl: 'file:///etc' })).toThrow(
      /WORKTRAY_SERVER must be an http\(s\) URL/,
    );
    expect(
      hostConfig.safeParse({ ...base, serverUrl: null, attachmentUrlTemplate: '/files/' }).success,
    ).toBe(false);
  });
});
