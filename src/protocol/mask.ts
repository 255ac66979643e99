/** `+37060000666` → `+370 6•• •• 666`, grouped as a Lithuanian writes a number: enough for the person to recognise, little for anyone else. */
export function maskPhone(phone: string): string {
  const match = /^(\+\d{3})(\d)\d*(\d{3})$/.exec(phone.replace(/[\s-]/g, ''));
  // no-break spaces: a masked number never splits over two lines
  return match ? `${match[1]}\u00a0${match[2]}••\u00a0••\u00a0${match[3]}` : '•••';
}

/** `30303039914` → `3030••••914`. */
export function maskCode(code: string): string {
  const compact = code.replace(/\s/g, '');
  return compact.length >= 8 ? `${compact.slice(0, 4)}••••${compact.slice(-3)}` : '•••';
}
