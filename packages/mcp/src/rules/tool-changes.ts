import { canonical, type DigestedTool } from './tool-digest.js';

/** A text cut to `limit` characters, on one line (a server's text may hold anything). */
function shown(value: unknown, limit = 120): string {
  const text = (typeof value === 'string' ? value : canonical(value)).replace(
    /[\p{Cc}\p{Cf}]+/gu,
    ' ',
  );
  const cut = text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
  // A string is quoted, so its bounds show; a number or a boolean reads as itself.
  return typeof value === 'string' ? JSON.stringify(cut) : cut;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function names(keys: readonly string[]): string {
  return keys.map((key) => shown(key, 40)).join(', ');
}

/** What changed in the input schema: arguments added, removed, changed, or the rest of it. */
function schemaChanges(before: unknown, after: unknown): string[] {
  const was = record(record(before).properties);
  const now = record(record(after).properties);
  const added = Object.keys(now).filter((key) => !(key in was));
  const removed = Object.keys(was).filter((key) => !(key in now));
  const changed = Object.keys(now).filter(
    (key) => key in was && canonical(was[key]) !== canonical(now[key]),
  );
  const changes: string[] = [];
  if (added.length > 0) changes.push(`arguments added: ${names(added)}`);
  if (removed.length > 0) changes.push(`arguments removed: ${names(removed)}`);
  if (changed.length > 0) changes.push(`arguments changed: ${names(changed)}`);
  const rest = (schema: unknown) => canonical({ ...record(schema), properties: undefined });
  if (rest(before) !== rest(after)) changes.push('the rest of its input schema changed');
  return changes;
}

/** What changed in the annotations, hint by hint (`readOnlyHint true → unset`). */
function annotationChanges(before: unknown, after: unknown): string[] {
  const was = record(before);
  const now = record(after);
  const keys = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
  return keys
    .filter((key) => canonical(was[key]) !== canonical(now[key]))
    .map(
      (key) =>
        `${shown(key, 40)} ${key in was ? shown(was[key], 60) : 'unset'} → ${key in now ? shown(now[key], 60) : 'unset'}`,
    );
}

/**
 * What changed in a tool between the definition an "always" pinned and the one its server
 * offers now, in a few words for the person: the description (old and new), the arguments
 * added, removed or changed, and each hint. At most `limit` characters.
 */
export function toolChanges(before: DigestedTool, after: DigestedTool, limit = 600): string {
  const changes: string[] = [];
  if ((before.description ?? '') !== (after.description ?? ''))
    changes.push(
      `description ${shown(before.description ?? '')} → ${shown(after.description ?? '')}`,
    );
  changes.push(...schemaChanges(before.inputSchema, after.inputSchema));
  const hints = annotationChanges(before.annotations, after.annotations);
  if (hints.length > 0) changes.push(`hints: ${hints.join(', ')}`);
  const text = changes.length === 0 ? 'nothing the person reads changed' : changes.join('; ');
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}
