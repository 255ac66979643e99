/** The page's localStorage or sessionStorage, or null where there is none or it is switched off (a privacy setting). */
export function webStorage(name: 'localStorage' | 'sessionStorage'): Storage | null {
  try {
    return typeof globalThis[name] === 'undefined' ? null : globalThis[name];
  } catch {
    // reading it throws where storage is refused: nothing kept, nothing else changes
    return null;
  }
}
