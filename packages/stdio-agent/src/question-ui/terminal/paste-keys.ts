import { isKey, type KeyPress } from './key.js';

/**
 * The bound of a bracketed paste a key is (`start`, `end`), or `undefined` for any other key.
 * Bounds are not keys the person pressed: they only say where pasted text begins and ends.
 */
export function pasteBound(press: KeyPress): 'start' | 'end' | undefined {
  const { name } = press.key;
  if (name === 'paste-start') return 'start';
  if (name === 'paste-end') return 'end';
  return undefined;
}

/** The paste state after `press`: on at its start, off at its end, else as it was. */
export function pastingAfter(pasting: boolean, press: KeyPress): boolean {
  const bound = pasteBound(press);
  return bound === undefined ? pasting : bound === 'start';
}

/** True for a key that is text inside a paste: every key between its bounds but Ctrl+C. */
export function isPastedKey(pasting: boolean, press: KeyPress): boolean {
  return pasting && !isKey(press.key, 'c', { ctrl: true }) && pasteBound(press) === undefined;
}

/**
 * True when the keys of one input chunk are more than one key (paste bounds aside): a paste
 * from a terminal without bracketed paste, or text typed while the program was busy. A person
 * pressing keys sends one chunk per key.
 */
export function isBurst(presses: readonly KeyPress[]): boolean {
  let keys = 0;
  for (const press of presses) {
    if (pasteBound(press) === undefined && ++keys > 1) return true;
  }
  return false;
}
