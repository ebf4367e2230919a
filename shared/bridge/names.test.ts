import { describe, expect, it } from 'vitest';
import { bridgeEventNames, bridgeMethodNames } from '.';
import { bridgeEventNameList, bridgeMethodNameList } from './names';

describe('the bridge names the preload allows', () => {
  it('are exactly the contract’s methods and events', () => {
    expect([...bridgeMethodNameList].sort()).toEqual([...bridgeMethodNames].sort());
    expect([...bridgeEventNameList].sort()).toEqual([...bridgeEventNames].sort());
  });
});
