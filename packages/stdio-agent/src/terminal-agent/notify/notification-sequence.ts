import { neutralizeText } from '../../text/neutralize-text.js';

/** How a terminal is told that something waits. */
export type NotificationKind = 'osc9' | 'osc777' | 'osc99' | 'bell';

const ESC = '\u001b';
const BEL = '\u0007';
/** Longest title and body of a notification, in characters (as Gemini CLI caps them). */
export const TITLE_LENGTH = 48;
export const BODY_LENGTH = 180;

/**
 * Which notification the terminal understands, from what it says of itself: kitty its own
 * OSC 99; iTerm2, WezTerm, Ghostty and Warp OSC 9; VTE terminals (GNOME Terminal…), foot,
 * urxvt and Konsole OSC 777; anything else a bell, which every terminal shows somehow.
 */
export function notificationKind(env: NodeJS.ProcessEnv): NotificationKind {
  const program = env.TERM_PROGRAM ?? '';
  const term = env.TERM ?? '';
  if ((env.KITTY_WINDOW_ID ?? '') !== '' || term === 'xterm-kitty') return 'osc99';
  if (/^(iTerm\.app|WezTerm|ghostty|WarpTerminal)$/.test(program)) return 'osc9';
  if (term.startsWith('xterm-ghostty') || term === 'wezterm') return 'osc9';
  if ((env.VTE_VERSION ?? '') !== '' || (env.KONSOLE_VERSION ?? '') !== '') return 'osc777';
  if (/^(foot|rxvt)/.test(term)) return 'osc777';
  return 'bell';
}

/**
 * Text that may go inside an OSC sequence: inert (no control character can end the sequence
 * or start another), on one line, without `;` (a field separator of OSC 777 and kitty), and cut.
 */
export function notificationText(text: string, length: number): string {
  const line = neutralizeText(text).replaceAll(';', ',').replace(/\s+/g, ' ').trim();
  const characters = Array.from(line);
  return characters.length > length
    ? `${characters.slice(0, length - 1).join('')}…`
    : characters.join('');
}

/** `sequence` as tmux passes it through to the terminal outside (with `allow-passthrough on`). */
export function throughTmux(sequence: string): string {
  return `${ESC}Ptmux;${sequence.replaceAll(ESC, ESC + ESC)}${ESC}\\`;
}

/** The bytes of one notification: `title` and `body` are made inert and cut here. */
export function notificationSequence(
  kind: NotificationKind,
  title: string,
  body: string,
  options: { readonly tmux?: boolean } = {},
): string {
  const shownTitle = notificationText(title, TITLE_LENGTH);
  const shownBody = notificationText(body, BODY_LENGTH);
  let sequence: string;
  switch (kind) {
    case 'bell':
      // A bell needs no passthrough: tmux forwards it (as its own bell) by itself.
      return BEL;
    case 'osc9': {
      // ConEmu and Windows Terminal read a text that starts "<digit>;" as a progress report.
      const text = `${shownTitle}: ${shownBody}`.replace(/^(\d)/, ' $1');
      sequence = `${ESC}]9;${text}${BEL}`;
      break;
    }
    case 'osc777':
      sequence = `${ESC}]777;notify;${shownTitle};${shownBody}${BEL}`;
      break;
    case 'osc99':
      sequence = `${ESC}]99;i=1:d=0;${shownTitle}${ESC}\\${ESC}]99;i=1:p=body;${shownBody}${ESC}\\`;
      break;
  }
  return options.tmux === true ? throughTmux(sequence) : sequence;
}

/** Saves the terminal's title on its stack, then sets `title` (inert). */
export function pushTitle(title: string): string {
  return `${ESC}[22;0t${ESC}]0;${notificationText(title, TITLE_LENGTH + 20)}${BEL}`;
}

/** Gives the terminal back the title saved by `pushTitle`. */
export const POP_TITLE = `${ESC}[23;0t`;
/** Asks the terminal to report focus changes (`CSI I`, `CSI O`), and to stop. */
export const FOCUS_ON = `${ESC}[?1004h`;
export const FOCUS_OFF = `${ESC}[?1004l`;
export const FOCUS_IN = `${ESC}[I`;
export const FOCUS_OUT = `${ESC}[O`;
