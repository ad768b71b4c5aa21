/** A key as `readline.emitKeypressEvents` decodes it. */
export interface Key {
  readonly name?: string | undefined;
  readonly ctrl?: boolean | undefined;
  readonly meta?: boolean | undefined;
  readonly shift?: boolean | undefined;
  readonly sequence?: string | undefined;
}

/** One keypress: the text it types (if any) and the decoded key. */
export interface KeyPress {
  readonly text: string | undefined;
  readonly key: Key;
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** The text a keypress types, or undefined for a command key (arrows, Ctrl+…, Enter). */
export function typedText(press: KeyPress): string | undefined {
  const { text, key } = press;
  if (text === undefined || text === '' || key.ctrl === true || key.meta === true) return undefined;
  return CONTROL.test(text) ? undefined : text;
}

/** True for a key with this name and exactly these modifiers. */
export function isKey(key: Key, name: string, modifiers: { ctrl?: boolean; meta?: boolean } = {}) {
  return (
    key.name === name &&
    (key.ctrl === true) === (modifiers.ctrl === true) &&
    (key.meta === true) === (modifiers.meta === true)
  );
}
