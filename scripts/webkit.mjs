// WebKit for the browser suites: Debian's WebKitGTK MiniBrowser driven by WebKitWebDriver, started
// under xvfb-run (WebKitGTK needs a display) on a free loopback port; never downloaded.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { webdriverLauncher } from '@web/test-runner-webdriver';

export const WEBKIT_DRIVER = '/usr/bin/WebKitWebDriver';
export const MINIBROWSER = ['/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser', '/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser'].find((path) =>
  existsSync(path),
);

export function webkitAvailable() {
  return existsSync(WEBKIT_DRIVER) && existsSync('/usr/bin/xvfb-run') && MINIBROWSER !== undefined;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Until the driver answers: up to a minute, as it may start while the machine starts every other suite too. */
async function untilListening(port, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`WebKitWebDriver exited with ${child.exitCode}`);
    try {
      const response = await fetch(`http://127.0.0.1:${port}/status`);
      if (response.ok) return;
    } catch {
      // not yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('WebKitWebDriver did not start');
}

/** What asks WebKitWebDriver for a MiniBrowser (WebDriver classic, which its webdriverio 9 must be told). */
export const WEBKIT_CAPABILITIES = {
  browserName: 'MiniBrowser',
  'wdio:enforceWebDriverClassic': true,
  'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
};

/**
 * Starts WebKitWebDriver under xvfb-run on a free loopback port; stopped by `stop()` or when this
 * process ends. A driver that exits at once (another Xvfb took the display `-a` chose, another
 * process the port) is started again, up to three times.
 */
export async function startWebkitDriver(attempts = 3) {
  try {
    return await startWebkitDriverOnce();
  } catch (error) {
    if (attempts <= 1 || !String(error).includes('exited')) throw error;
    return startWebkitDriver(attempts - 1);
  }
}

async function startWebkitDriverOnce() {
  const port = await freePort();
  // its own process group, so the driver, Xvfb and the browsers go together
  const driver = spawn('xvfb-run', ['-a', WEBKIT_DRIVER, `--port=${port}`, '--host=127.0.0.1'], { stdio: 'ignore', detached: true });
  const stop = () => {
    try {
      process.kill(-driver.pid, 'SIGTERM');
    } catch {
      // gone already
    }
  };
  process.once('exit', stop);
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.once(signal, () => {
      stop();
      process.exit(1);
    });
  try {
    await untilListening(port, driver);
  } catch (error) {
    stop();
    throw error;
  }
  return { port, stop };
}

/** The test runner's launcher, with the driver started now. */
export async function webkitLauncher() {
  const { port } = await startWebkitDriver();
  return webdriverLauncher({
    automationProtocol: 'webdriver',
    hostname: '127.0.0.1',
    port,
    path: '/',
    logLevel: 'error',
    capabilities: WEBKIT_CAPABILITIES,
  });
}
