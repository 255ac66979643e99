/**
 * Runs once what is rendered now is on screen: a task queued from the animation frame after the
 * next one runs after both are painted, so the frame that first shows a form is never held up by
 * what comes after it (one frame more is nothing a person can act in). A page that paints no
 * frames (a hidden tab, an iframe the browser throttles off screen, a busy headless browser)
 * still gets there: at most AFTER_PAINT_AT_MOST_MS later.
 */
const AFTER_PAINT_AT_MOST_MS = 300;

export function afterPaint(run: () => void): void {
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    run();
  };
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(once)));
  setTimeout(once, AFTER_PAINT_AT_MOST_MS);
}
