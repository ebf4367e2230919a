import { contextBridge, ipcRenderer } from 'electron';
import { bridgeEventNameList, bridgeMethodNameList } from '../../shared/bridge/names';
import { createPreloadApi } from './preload-api';

// The page gets `window.worktray` = { invoke, on } for the contract's names, and nothing else.
contextBridge.exposeInMainWorld(
  'worktray',
  createPreloadApi(ipcRenderer, bridgeMethodNameList, bridgeEventNameList),
);
