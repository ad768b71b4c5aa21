import type { ToolCallContent } from '@agentclientprotocol/sdk';
import { jsonByteLength, jsonStringPrefix } from '../stdio/message-size.js';
import { textContent } from './tool-call-content.js';

type DiffItem = Extract<ToolCallContent, { type: 'diff' }>;

/** Room left for each note that says what was cut, and for rounding. */
const NOTE_BYTES = 512;
/**
 * The most of each text a cut diff shows, as JSON: far more than a person reads before
 * deciding, and a message an editor parses quickly (32 MiB of diff took it seconds).
 */
const DIFF_SHOWN_BYTES = 1024 * 1024;
/** Lines shown before a cut diff's first change. */
const CONTEXT_LINES = 3;

/** `text` cut to take `excess` bytes fewer as JSON, ending with a note saying how much is not shown and `why`. */
export function cutText(text: string, excess: number, why: string): string {
  const budget = jsonByteLength(text) - excess - NOTE_BYTES;
  const kept = jsonStringPrefix(text, Math.max(0, budget));
  return `${kept}\n[… ${text.length - kept.length} more characters not shown: ${why}]`;
}

/** Where the texts first differ, moved back to the start of its line and `CONTEXT_LINES` more. */
function windowStart(oldText: string, newText: string): number {
  const most = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start < most && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  if (start > 0) start = oldText.lastIndexOf('\n', start - 1) + 1;
  for (let line = 0; line < CONTEXT_LINES && start > 0; line++) {
    start = start === 1 ? 0 : oldText.lastIndexOf('\n', start - 2) + 1;
  }
  return start;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < index; at = text.indexOf('\n', at + 1))
    line++;
  return line;
}

/**
 * A diff whose texts take `size` bytes as JSON, cut to take about `excess` bytes fewer: a note first, then the diff of both
 * texts from a few lines before their first change, each cut to its share. Display only.
 */
function cutDiff(item: DiffItem, size: number, excess: number, why: string): ToolCallContent[] {
  const oldText = item.oldText ?? '';
  const budget = Math.max(0, size - excess);
  const start = windowStart(oldText, item.newText);
  // A new file has only its new text: it gets the whole budget.
  const share = Math.min(DIFF_SHOWN_BYTES, item.oldText == null ? budget : budget / 2);
  const oldShown = item.oldText == null ? null : jsonStringPrefix(oldText.slice(start), share);
  const newShown = jsonStringPrefix(item.newText.slice(start), share);
  const where = start === 0 ? 'from the start' : `from line ${lineAt(oldText, start)}`;
  const parts = [
    ...(oldShown === null
      ? []
      : [`${oldShown.length} of ${oldText.length - start} characters of the old text`]),
    `${newShown.length} of ${item.newText.length - start} of the new`,
  ];
  const note = `This change is too large to show whole (${why}). Shown ${where}: ${parts.join(' and ')}; the rest is left out, so judge only what you can see, or reject it.`;
  return [textContent(note), { ...item, oldText: oldShown, newText: newShown }];
}

/** The bytes a piece of content takes that cutting can save: a text's, or a diff's two texts. */
function cuttableBytes(item: ToolCallContent): number {
  if (item.type === 'diff')
    return jsonByteLength(item.oldText ?? '') + jsonByteLength(item.newText);
  if (item.type === 'content' && item.content.type === 'text')
    return jsonByteLength(item.content.text);
  return 0;
}

/**
 * `content` cut to take at least `excess` bytes fewer as JSON, largest piece first (a diff of
 * megabytes before the line that says who allowed it): a text ends with a note saying how much
 * is left out, and a diff is shown from its first change after a note. `why` says why. Display
 * only: whoever sent the change keeps it whole.
 */
export function cutContent(
  content: readonly ToolCallContent[],
  excess: number,
  why: string,
): ToolCallContent[] {
  const sizes = content.map(cuttableBytes);
  const order = sizes.map((_, index) => index).sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0));
  const pieces: ToolCallContent[][] = content.map((item) => [item]);
  let left = excess;
  for (const index of order) {
    const item = content[index] as ToolCallContent;
    const size = sizes[index] ?? 0;
    if (left <= 0 || size === 0) break;
    const share = Math.min(size, left + NOTE_BYTES);
    if (item.type === 'diff') pieces[index] = cutDiff(item, size, share, why);
    else if (item.type === 'content' && item.content.type === 'text') {
      const text = cutText(item.content.text, Math.max(0, share - NOTE_BYTES), why);
      pieces[index] = [{ ...item, content: { ...item.content, text } }];
    }
    left -= share;
  }
  return pieces.flat();
}
