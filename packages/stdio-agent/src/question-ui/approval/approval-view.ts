import {
  offeredChoices,
  type PermissionChoice,
  type PermissionRequest,
} from 'dsh-user-interaction/provider';
import { neutralizeText } from '../../text/neutralize-text.js';
import type { TerminalStyle } from '../../text/terminal-style.js';

/** One choice of an approval as the screen lists it. */
export interface ApprovalChoice {
  readonly choice: PermissionChoice;
  /** What the person reads, neutralised. */
  readonly label: string;
  /** The number that picks it: the same for a kind of choice whatever else is offered. */
  readonly number: number;
  /** The letter that picks it, besides its number. */
  readonly letter?: 'y' | 'n';
}

/**
 * The numbers of the choices, one per kind: when "always" is not offered, 2 is no choice rather
 * than Reject, so an answer typed ahead (on a pipe, or from habit) never means its opposite.
 */
const CHOICE_NUMBERS: Readonly<Record<PermissionChoice, number>> = {
  allow_once: 1,
  allow_always: 2,
  reject_once: 3,
  reject_always: 4,
};

/**
 * `before` and the numbers offered, as a prompt says them: `y, n or 1-3`, or `y, n, 1 or 3`
 * when there is a gap.
 */
export function offeredNumbers(view: ApprovalView, before: readonly string[] = []): string {
  const numbers = view.choices.map((item) => item.number);
  const first = numbers[0] ?? 1;
  const last = numbers.at(-1) ?? 1;
  const gapless = numbers.length === 1 || last - first === numbers.length - 1;
  const items = [
    ...before,
    ...(gapless
      ? [numbers.length === 1 ? String(first) : `${first}-${last}`]
      : numbers.map(String)),
  ];
  return items.length === 1
    ? (items[0] as string)
    : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** The choice a number picks, if one is offered. */
export function choiceNumbered(view: ApprovalView, number: number): ApprovalChoice | undefined {
  return view.choices.find((item) => item.number === number);
}

/** A diff or a command as lines to show, before styling. */
export type BodyLine = {
  readonly kind: 'added' | 'removed' | 'context' | 'hunk' | 'file' | 'command' | 'note' | 'warning';
  readonly text: string;
};

/** An approval as the screen shows it: every field neutralised, the body as lines. */
export interface ApprovalView {
  readonly title: string;
  /** The kind and the paths, on one line. */
  readonly detail: string;
  readonly body: readonly BodyLine[];
  readonly choices: readonly ApprovalChoice[];
}

/** Diffs of files larger than this are summed up, not computed (a person cannot read them anyway). */
const LARGEST_DIFF = 1_000_000;
/** Lines of context around each change. */
const CONTEXT = 3;

type DiffModule = typeof import('diff');
let diffModule: Promise<DiffModule> | undefined;

/** Loads the diff module the first time an edit is shown: a session without edits never loads it. */
export function loadDiff(): Promise<DiffModule> {
  diffModule ??= import('diff');
  return diffModule;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let count = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

/** Where the lines both texts start with end, less `CONTEXT` lines: the start of what differs. */
function sharedStart(oldText: string, newText: string): number {
  const most = Math.min(oldText.length, newText.length);
  let start = 0;
  while (start < most && oldText.charCodeAt(start) === newText.charCodeAt(start)) start++;
  // Back to the start of its line, then `CONTEXT` lines more, kept as the diff's context.
  // (`lastIndexOf` reads a negative position as 0: the first line is never looked past.)
  if (start > 0) start = oldText.lastIndexOf('\n', start - 1) + 1;
  for (let line = 0; line < CONTEXT && start > 0; line++) {
    start = start === 1 ? 0 : oldText.lastIndexOf('\n', start - 2) + 1;
  }
  return start;
}

/** How many characters both texts end with, from a line's start on, less `CONTEXT` lines. */
function sharedEnd(oldText: string, newText: string, start: number): number {
  const most = Math.min(oldText.length, newText.length) - start;
  let length = 0;
  while (
    length < most &&
    oldText.charCodeAt(oldText.length - 1 - length) ===
      newText.charCodeAt(newText.length - 1 - length)
  ) {
    length++;
  }
  // On to the start of a line (what ends both texts is whole lines), then `CONTEXT` lines more.
  let end = oldText.length - length;
  if (end > start && oldText.charCodeAt(end - 1) !== 10) {
    const next = oldText.indexOf('\n', end);
    end = next === -1 ? oldText.length : next + 1;
  }
  for (let line = 0; line < CONTEXT && end < oldText.length; line++) {
    const next = oldText.indexOf('\n', end);
    end = next === -1 ? oldText.length : next + 1;
  }
  return oldText.length - end;
}

/**
 * The edit as diff lines: a file header, then each hunk with its changes. The lines both texts
 * start and end with (beyond the context) are set aside first, in one pass: a change of a few
 * lines in a file of megabytes is shown, and computed on those lines alone.
 */
function editLines(edit: NonNullable<PermissionRequest['edit']>, diff: DiffModule): BodyLine[] {
  const oldText = edit.oldText ?? '';
  const lines: BodyLine[] = [
    {
      kind: 'file',
      text: edit.oldText === null ? `new file ${edit.path}` : edit.path,
    },
  ];
  const start = sharedStart(oldText, edit.newText);
  const end = sharedEnd(oldText, edit.newText, start);
  const oldPart = oldText.slice(start, oldText.length - end);
  const newPart = edit.newText.slice(start, edit.newText.length - end);
  if (oldPart.length + newPart.length > LARGEST_DIFF) {
    lines.push({
      kind: 'note',
      text: `${lineCount(oldText)} lines become ${lineCount(edit.newText)} lines: too large to show as a diff`,
    });
    return lines;
  }
  // The lines set aside before the part diffed: its hunks are numbered from there.
  const skipped = lineCount(oldText.slice(0, start));
  const patch = diff.structuredPatch(edit.path, edit.path, oldPart, newPart, '', '', {
    context: CONTEXT,
  });
  if (patch === undefined || patch.hunks.length === 0) {
    lines.push({ kind: 'note', text: 'no change to the text' });
    return lines;
  }
  for (const hunk of patch.hunks) {
    lines.push({
      kind: 'hunk',
      text: `@@ -${hunk.oldStart + skipped},${hunk.oldLines} +${hunk.newStart + skipped},${hunk.newLines} @@`,
    });
    for (const line of hunk.lines) {
      const mark = line[0];
      const kind = mark === '+' ? 'added' : mark === '-' ? 'removed' : 'context';
      if (mark === '\\') continue;
      lines.push({ kind, text: line });
    }
  }
  return lines;
}

/** Builds the neutralised view of an approval; `diff` is needed for an edit. */
export function approvalView(
  request: PermissionRequest,
  diff: DiffModule | undefined,
): ApprovalView {
  const inert = (text: string): string => neutralizeText(text);
  const paths = request.paths ?? [];
  const detail = [request.kind, ...paths].map(inert).join(' · ');
  const body: BodyLine[] = [];
  if (request.command !== undefined) {
    for (const line of request.command.command.split('\n')) {
      body.push({ kind: 'command', text: inert(line) });
    }
    body.push({ kind: 'note', text: `in ${inert(request.command.cwd)}` });
    // Whether it runs in the sandbox; anything wider stands out.
    const { sandbox } = request.command;
    if (sandbox !== undefined) {
      body.push({
        kind: sandbox.confinement === 'sandboxed' ? 'note' : 'warning',
        text: inert(sandbox.note),
      });
    }
  }
  if (request.edit !== undefined && diff !== undefined) {
    for (const line of editLines(request.edit, diff))
      body.push({ kind: line.kind, text: inert(line.text) });
  }
  const labels: Record<PermissionChoice, ApprovalChoice> = {
    allow_once: {
      choice: 'allow_once',
      label: 'Allow once',
      number: CHOICE_NUMBERS.allow_once,
      letter: 'y',
    },
    allow_always: {
      choice: 'allow_always',
      label: inert(request.allowAlways?.description ?? 'Always allow'),
      number: CHOICE_NUMBERS.allow_always,
    },
    reject_once: {
      choice: 'reject_once',
      label: 'Reject',
      number: CHOICE_NUMBERS.reject_once,
      letter: 'n',
    },
    reject_always: {
      choice: 'reject_always',
      label: inert(request.rejectAlways?.description ?? 'Always reject'),
      number: CHOICE_NUMBERS.reject_always,
    },
  };
  const choices = offeredChoices(request).map((choice) => labels[choice]);
  return { title: inert(request.title.trim()), detail, body, choices };
}

/** A body line, styled: additions green, removals red, hunk headers dim. */
export function styledBodyLine(line: BodyLine, style: TerminalStyle): string {
  switch (line.kind) {
    case 'added':
      return style.success(line.text);
    case 'removed':
    case 'warning':
      return style.danger(line.text);
    case 'hunk':
    case 'note':
      return style.dim(line.text);
    case 'file':
      return style.bold(line.text);
    case 'command':
      return `${style.dim('$')} ${style.bold(line.text)}`;
    case 'context':
      return line.text;
  }
}

/** What the summary line says a choice was. */
export function choiceSummary(choice: PermissionChoice, view: ApprovalView): string {
  switch (choice) {
    case 'allow_once':
      return 'allowed once';
    case 'reject_once':
      return 'rejected';
    case 'allow_always':
    case 'reject_always': {
      const label = view.choices.find((item) => item.choice === choice)?.label ?? '';
      return `${choice === 'allow_always' ? 'allowed' : 'rejected'}: ${label.replace(/^Always /, 'always ')}`;
    }
  }
}
