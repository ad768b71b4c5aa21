import type { ToolCallContent, ToolCallLocation } from '@agentclientprotocol/sdk';
import type { PermissionCommand, PermissionEdit } from 'dsh-user-interaction';

/** A line of text as tool call content (editors render it as Markdown). */
export function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text } };
}

/** An edit or a write as a `diff` content: editors show it as a diff of `path` (`oldText` null: a new file). */
export function diffContent(edit: PermissionEdit): ToolCallContent {
  return { type: 'diff', path: edit.path, oldText: edit.oldText, newText: edit.newText };
}

/** The places a call touches, as ACP locations (absolute paths, a line where known). */
export function toolCallLocations(
  locations: readonly { readonly path: string; readonly line?: number }[] | undefined,
): ToolCallLocation[] | undefined {
  if (locations === undefined || locations.length === 0) return undefined;
  return locations.map((location) =>
    location.line === undefined
      ? { path: location.path }
      : { path: location.path, line: location.line },
  );
}

/**
 * A command and its folder, as a Markdown code block and a line, then whether it runs in the
 * sandbox; fenced longer than any run of backticks in it, so it stays inert.
 */
export function commandContent(command: PermissionCommand): ToolCallContent {
  const longest = Math.max(0, ...(command.command.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  const sandbox = command.sandbox === undefined ? '' : `\n${command.sandbox.note}`;
  return textContent(`${fence}sh\n${command.command}\n${fence}\nin ${command.cwd}${sandbox}`);
}

/** What a described call will do, as content: the diff of an edit, or the command and its folder. */
export function changeContent(change: {
  readonly edit?: PermissionEdit | undefined;
  readonly command?: PermissionCommand | undefined;
}): ToolCallContent[] {
  const content: ToolCallContent[] = [];
  if (change.edit !== undefined) content.push(diffContent(change.edit));
  if (change.command !== undefined) content.push(commandContent(change.command));
  return content;
}
