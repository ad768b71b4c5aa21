import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  createPermissionPolicy,
  openWorkspace,
  type WorkspacePermissionPolicy,
} from '../../src/index.js';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';
import { readPlainScript } from '../../src/policy/command/plain-script.js';
import type { Workspace } from '../../src/workspace/workspace.js';
import {
  ALLOWED_PROGRAMS,
  canTrace,
  generateCommand,
  randomSource,
  runTraced,
  runTracedBatch,
} from '../support/bash-differential.js';
import { commandCheck } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-differential-');

/** Every command line the policy saw `text` run, as words: each simple command, and what its wrappers run. */
async function seen(text: string): Promise<Set<string>> {
  const key = (words: readonly (string | null)[]) => JSON.stringify(words);
  const known = new Set<string>();
  const plain = readPlainScript(text, { multibyte: true });
  if (plain.plain) for (const command of plain.commands) known.add(key(command.words));
  for (const part of (await analyseCommand(text)).parts) known.add(key(part.words));
  return known;
}

let workspace: Workspace;
let policy: WorkspacePermissionPolicy;

beforeAll(async () => {
  const folder = join(base, 'workspace');
  mkdirSync(folder, { recursive: true });
  workspace = await openWorkspace(folder);
  policy = createPermissionPolicy({
    workspace,
    stateDir: join(base, 'state'),
    allow: ALLOWED_PROGRAMS.map((program) => `run_command:${program}`),
    deny: ['run_command:touch'],
  });
});

/** Checks `count` generated commands from `seed`; returns how many the policy allowed. */
export async function checkAgainstBash(seed: number, count: number): Promise<number> {
  const random = randomSource(seed);
  const allowed: string[] = [];
  for (let index = 0; index < count; index++) {
    const text = generateCommand(random);
    const verdict = await policy.decide(commandCheck(workspace, text));
    if (verdict.decision === 'allow') allowed.push(text);
  }
  const runs = runTracedBatch(allowed);
  for (const [index, text] of allowed.entries()) {
    const known = await seen(text);
    const run = runs[index] as (typeof runs)[number];
    for (const words of run.ran) {
      expect(
        known.has(JSON.stringify(words)),
        `${JSON.stringify(text)} ran ${JSON.stringify(words)}`,
      ).toBe(true);
    }
    expect(run.files, JSON.stringify(text)).toEqual([]);
  }
  return allowed.length;
}

describe('the command policy against bash itself', () => {
  it('has a tracer that sees a hidden command run (strace is installed by scripts/setup.sh)', () => {
    expect(canTrace(), 'strace must be installed: run `sh scripts/setup.sh`').toBe(true);
    const run = runTraced('echo hi; touch pwned');
    expect(run.ran).toContainEqual(['echo', 'hi']);
    expect(run.ran).toContainEqual(['touch', 'pwned']);
    expect(run.files).toEqual(['pwned']);
  });

  it('lets bash run, of a command a rule allows, only the commands the policy saw (fixed seed)', async () => {
    const allowed = await checkAgainstBash(20261207, 700);
    // The generator makes enough plain commands for the check to mean something.
    expect(allowed).toBeGreaterThan(150);
  }, 120_000);
});
