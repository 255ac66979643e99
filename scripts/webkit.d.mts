import type { BrowserLauncher } from '@web/test-runner';

export const WEBKIT_DRIVER: string;
export const MINIBROWSER: string | undefined;
export const WEBKIT_CAPABILITIES: WebdriverIO.Capabilities;
export function webkitAvailable(): boolean;
export function startWebkitDriver(attempts?: number): Promise<{ port: number; stop: () => void }>;
export function webkitLauncher(): Promise<BrowserLauncher>;
