import { blobToBase64 } from '../src/internal/data/base64.js';

interface Measure {
  ms: number;
  longestTaskMs: number;
}

function randomBlob(bytes: number): Blob {
  const data = new Uint8Array(bytes);
  for (let i = 0; i < bytes; i += 65536) crypto.getRandomValues(data.subarray(i, i + 65536));
  return new Blob([data]);
}

async function measure(run: () => Promise<unknown>): Promise<Measure> {
  let longest = 0;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longest = Math.max(longest, entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  // longest gap between animation frames stands in for a long task where the browser reports none
  let lastFrame = performance.now();
  let longestFrameGap = 0;
  let measuring = true;
  const frame = (now: number) => {
    longestFrameGap = Math.max(longestFrameGap, now - lastFrame);
    lastFrame = now;
    if (measuring) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
  const started = performance.now();
  await run();
  const ms = performance.now() - started;
  measuring = false;
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return { ms, longestTaskMs: Math.max(longest, longestFrameGap) };
}

function nativeWhole(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsDataURL(blob);
  });
}

/** Runs in the page: encode 10 MB and 50 MB with the widget's encoder and with one native FileReader call. */
(window as unknown as { runEncodeBench: () => Promise<unknown> }).runEncodeBench = async () => {
  const results: Record<string, { widget: Measure; native: Measure }> = {};
  for (const mb of [10, 50]) {
    const blob = randomBlob(mb * 1024 * 1024);
    const widget = await measure(() => blobToBase64(blob));
    const native = await measure(() => nativeWhole(blob));
    results[`${mb} MB`] = { widget, native };
  }
  return results;
};
