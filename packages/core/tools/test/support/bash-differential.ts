import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPermissionPolicy, openWorkspace } from '../../src/index.js';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';
import { readPlainScript } from '../../src/policy/command/plain-script.js';
import { ALLOWED_PROGRAMS, generateCommand } from './generated-commands.js';
import { commandCheck } from './policy-checks.js';
import { randomSource } from './random-source.js';
import { type BashRun, runTracedBatch } from './traced-bash.js';

/**
 * A differential test of the command policy against bash itself: generated command lines, and
 * for each one a rule allows, what bash really ran (every program it started, traced with
 * `strace -f -e execve`, and every builtin it ran, logged by a function of the same name loaded
 * through `BASH_ENV`). Only the commands the policy saw may run, with the words it saw.
 */

/** Every command `text` runs as far as the policy saw it: each simple command, and what its wrappers run. */
async function seenRuns(text: string): Promise<Set<string>> {
  const known = new Set<string>();
  const plain = readPlainScript(text, { multibyte: true });
  if (plain.plain) for (const command of plain.commands) known.add(JSON.stringify(command.words));
  for (const part of (await analyseCommand(text)).parts) known.add(JSON.stringify(part.words));
  return known;
}

/** A command line a rule allowed, and what bash ran of it that the policy did not see. */
export interface Disagreement {
  readonly command: string;
  readonly unseen: string[][];
  readonly files: string[];
}

/**
 * Generates `count` command lines from `seed`, decides each under rules that allow
 * `ALLOWED_PROGRAMS` and deny `touch`, runs those allowed under bash (traced), and returns how
 * many were allowed and every one where bash ran a command the policy did not see, or left a
 * file. Works in a temporary folder it removes.
 */
export async function differentialRun(
  seed: number,
  count: number,
): Promise<{ allowed: number; disagreements: Disagreement[] }> {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-differential-policy-'));
  try {
    mkdirSync(join(folder, 'workspace'));
    const workspace = await openWorkspace(join(folder, 'workspace'));
    const policy = createPermissionPolicy({
      workspace,
      stateDir: join(folder, 'state'),
      allow: ALLOWED_PROGRAMS.map((program) => `run_command:${program}`),
      deny: ['run_command:touch'],
    });
    const random = randomSource(seed);
    const allowed: string[] = [];
    for (let index = 0; index < count; index++) {
      const text = generateCommand(random);
      const verdict = await policy.decide(commandCheck(workspace, text));
      if (verdict.decision === 'allow') allowed.push(text);
    }
    const runs = runTracedBatch(allowed);
    const disagreements: Disagreement[] = [];
    for (const [index, command] of allowed.entries()) {
      const known = await seenRuns(command);
      const run = runs[index] as BashRun;
      const unseen = run.ran.filter((words) => !known.has(JSON.stringify(words)));
      if (unseen.length > 0 || run.files.length > 0)
        disagreements.push({ command, unseen, files: run.files });
    }
    return { allowed: allowed.length, disagreements };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
