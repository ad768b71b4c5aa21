// The modes a question sets on the terminal while it is on screen, and unsets when it leaves.

/** Hides the cursor: the question draws its own. */
export const HIDE_CURSOR = '\u001b[?25l';
export const SHOW_CURSOR = '\u001b[?25h';
/** Bracketed paste: a paste arrives between markers, so it is never taken for typed keys. */
export const PASTE_ON = '\u001b[?2004h';
export const PASTE_OFF = '\u001b[?2004l';
