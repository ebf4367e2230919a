import { contextBridge, ipcRenderer } from 'electron';
import { bridgeEventNames, bridgeMethodNames } from '../../shared/bridge';
import { createPreloadApi } from './preload-api';

// The page gets `window.worktray` = { invoke, on } for the contract's names, and nothing else.
contextBridge.exposeInMainWorld(
  'worktray',
  createPreloadApi(ipcRenderer, bridgeMethodNames, bridgeEventNames),
);
