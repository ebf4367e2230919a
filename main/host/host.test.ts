import { describe, expect, it } from 'vitest';
import { hostConfig, readHostConfig } from './host';

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

  it('says a bad config as sentences to act on, not as zod issues', () => {
    const read = () => readHostConfig({ ...base, serverUrl: 'ftp://files.example.com' });
    expect(read).toThrow(
      'WORKTRAY_SERVER (or --server) is "ftp://files.example.com", which is not an http(s) URL: set it to the address of your Work-Management service, such as https://work.example.com, or leave it empty to use the built-in demo.',
    );
    expect(() => readHostConfig({ demoDefault: true, serverUrl: null })).toThrow(
      /^no data folder was given: set WORKTRAY_DATA_DIR \(or --data\)/,
    );
    let message = '';
    try {
      readHostConfig({ ...base, serverUrl: 'nope', pullIntervalMs: 5 });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).not.toMatch(/[[{]/);
    expect(message).toContain('"nope"');
    expect(message).toContain('the setting pullIntervalMs is not valid');
    expect(readHostConfig({ ...base, serverUrl: '' }).serverUrl).toBeNull();
  });
});
