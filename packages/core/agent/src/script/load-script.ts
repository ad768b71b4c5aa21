import { readFile } from 'node:fs/promises';
import { ModelError } from '../models/model-error.js';
import type { Script } from './script.js';
import { validateScript } from './validate-script.js';

function readProblem(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return typeof code === 'string' ? code : 'it cannot be read';
}

/** Reads and validates a script file; throws `SCRIPT_INVALID` naming the file and the field. */
export async function loadScript(path: string): Promise<Script> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ModelError(`Cannot read script ${path}: ${readProblem(error)}.`, 'SCRIPT_INVALID', {
      cause: error,
    });
  }
  let value: unknown;
  try {
    // A leading byte-order mark is common in files saved on Windows.
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ModelError(`Invalid script ${path}: not valid JSON (${reason}).`, 'SCRIPT_INVALID', {
      cause: error,
    });
  }
  return validateScript(value, path);
}
