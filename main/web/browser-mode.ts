import { randomBytes } from 'node:crypto';
import type { HostConfig } from '../host/host';
import { startWorkerHost, type WorkerHost } from '../host/worker-host';
import { browserSessionFile } from '../services/data-layout';
import { fileTokenVault } from '../services/token-vault';
import { startWebBridge, type WebBridge } from './server';

export interface BrowserModeOptions extends Omit<HostConfig, 'attachmentUrlTemplate'> {
  /** The built renderer, or null (a page says the UI is not built). */
  staticDir: string | null;
  port?: number;
  log?: (message: string, error?: string) => void;
}

export interface BrowserMode {
  web: WebBridge;
  host: WorkerHost;
  close(): Promise<void>;
}

/**
 * The app without Electron: the host in its worker, the bridge and the UI over HTTP on
 * 127.0.0.1. Tokens go to a 0600 file in the data dir (no OS key store outside Electron).
 */
export const startBrowserMode = async (options: BrowserModeOptions): Promise<BrowserMode> => {
  const secret = randomBytes(32).toString('base64url');
  const { staticDir, port, log, ...config } = options;
  const host = await startWorkerHost(
    {
      ...config,
      attachmentUrlTemplate: `/bridge/attachments/{id}?secret=${encodeURIComponent(secret)}`,
    },
    { vault: fileTokenVault(browserSessionFile(options.dataDir)), ...(log ? { log } : {}) },
  );
  let web: WebBridge;
  try {
    web = await startWebBridge({ endpoint: host, staticDir, secret, ...(port ? { port } : {}) });
  } catch (e) {
    await host.close();
    throw e;
  }
  return {
    web,
    host,
    async close() {
      await web.close();
      await host.close();
    },
  };
};
