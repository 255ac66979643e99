/** What moving the focus in a session element needs: its drawn content, once drawn. */
interface Drawn {
  readonly updateComplete: Promise<boolean>;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

/**
 * Once the element drew: the focus on what `selector` finds. At an end (`atEnd`), what the end
 * says comes into view first (at 400% zoom the words and the action below them may not fit
 * together), then the focused action too where both fit.
 */
export async function focusWhenDrawn(element: Drawn, selector: string, atEnd: boolean): Promise<void> {
  await element.updateComplete;
  const target = element.renderRoot.querySelector<HTMLElement>(selector);
  if (!atEnd) {
    target?.focus();
    return;
  }
  target?.focus({ preventScroll: true });
  const status = element.renderRoot.querySelector('esign-status');
  if (!status) return;
  const box = status.getBoundingClientRect();
  status.scrollIntoView({ block: box.height > innerHeight ? 'start' : 'nearest' });
  if (!target || target === status) return;
  // the words and what can help together where they fit; where they do not (400% zoom), the focused
  // action in view at the bottom, the end of the words above it (a focus never out of sight)
  const fits = target.getBoundingClientRect().bottom - status.getBoundingClientRect().top <= innerHeight;
  target.scrollIntoView({ block: fits ? 'nearest' : 'end' });
}

/**
 * The focus on the control code as a session starts: a screen reader says the code digit by digit
 * and what to do (the thing the person must compare), and the page scrolls it into view. Tab
 * then goes to Cancel.
 */
export async function focusWaiting(element: Drawn): Promise<void> {
  await element.updateComplete;
  const code = element.renderRoot.querySelector<HTMLElement & Partial<Drawn>>('esign-control-code');
  await code?.updateComplete;
  code?.focus({ preventScroll: true });
  code?.scrollIntoView({ block: 'nearest' });
}
