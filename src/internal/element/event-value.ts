/** The value of the field an `input` or `change` event came from ('' from anything else). */
export function valueOf(event: Event): string {
  const field = event.target;
  return field instanceof HTMLInputElement || field instanceof HTMLSelectElement || field instanceof HTMLTextAreaElement ? field.value : '';
}

/** Whether the checkbox a `change` event came from is checked. */
export function checkedOf(event: Event): boolean {
  return event.target instanceof HTMLInputElement && event.target.checked;
}
