import { textWidth, wrapText } from '../../text/text-width.js';
import type { QuestionView } from '../question-view.js';
import { type ListLayout, RECOMMENDED } from './menu-rows.js';

/**
 * What the details pane shows for an option: its whole label when the list had to cut it,
 * then its description, wrapped to the label column.
 */
export function optionDetails(view: QuestionView, index: number, list: ListLayout): string[] {
  const lines: string[] = [];
  const suffix = index === view.recommended ? RECOMMENDED : '';
  const label = view.label(index);
  if (textWidth(label) + suffix.length > list.labelWidth) {
    lines.push(...wrapText(label, list.labelWidth));
  }
  const description = view.description(index);
  if (description !== undefined) lines.push(...wrapText(description, list.labelWidth));
  return lines;
}

const tallest = new WeakMap<QuestionView, { width: number; rows: number }>();

/**
 * The tallest details of any option, found once per label width. It reads every option: ask
 * it only when the whole list is on screen, so that its cost follows the screen.
 */
export function tallestDetails(view: QuestionView, list: ListLayout): number {
  const known = tallest.get(view);
  if (known?.width === list.labelWidth) return known.rows;
  let rows = 0;
  for (let index = 0; index < view.optionCount; index++) {
    rows = Math.max(rows, optionDetails(view, index, list).length);
  }
  tallest.set(view, { width: list.labelWidth, rows });
  return rows;
}
