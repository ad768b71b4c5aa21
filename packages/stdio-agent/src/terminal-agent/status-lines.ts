import { neutralizeText } from '../text/neutralize-text.js';
import type { TerminalStyle } from '../text/terminal-style.js';
import { wrapText } from '../text/text-width.js';

const KEYS_HINT = 'Type a message and press Enter. Ctrl+C cancels a turn; Ctrl+D quits.';

/**
 * The lines the terminal agent says at start: which model runs, where its tools work, and in a terminal the keys;
 * wrapped at spaces to `columns` when it is known.
 */
export function statusLines(
  description: string | undefined,
  terminal: boolean,
  style: TerminalStyle,
  columns: number | undefined,
  workspace?: string,
  sandbox?: string,
): string {
  const width = columns === undefined ? Number.POSITIVE_INFINITY : Math.max(20, columns - 1);
  const wrap = (text: string): string[] =>
    Number.isFinite(width) ? wrapText(text, width) : [text];
  const lines: string[] = [];
  if (description !== undefined) {
    const [first = '', ...rest] = wrap(`Model: ${neutralizeText(description)}`);
    lines.push(`${style.dim('Model:')}${first.slice('Model:'.length)}`, ...rest);
  }
  if (workspace !== undefined) {
    const [first = '', ...rest] = wrap(`Workspace: ${neutralizeText(workspace)}`);
    lines.push(`${style.dim('Workspace:')}${first.slice('Workspace:'.length)}`, ...rest);
  }
  if (sandbox !== undefined) {
    const [first = '', ...rest] = wrap(neutralizeText(sandbox));
    const label = first.startsWith('Sandbox:') ? 'Sandbox:' : '';
    lines.push(`${style.dim(label)}${first.slice(label.length)}`, ...rest);
  }
  if (terminal) lines.push(...wrap(KEYS_HINT).map((line) => style.dim(line)));
  return lines.map((line) => `${line}\n`).join('');
}
