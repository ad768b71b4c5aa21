import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PermissionCheck } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy, openWorkspace, type Workspace } from '../../src/index.js';
import { commandCheck } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-always-');
let count = 0;

async function setUp() {
  const folder = join(base, `w${++count}`);
  mkdirSync(folder);
  const workspace = await openWorkspace(folder);
  return {
    workspace,
    policy: createPermissionPolicy({ workspace, stateDir: join(base, `s${count}`) }),
  };
}

const run = commandCheck;

function write(workspace: Workspace, path: string): PermissionCheck {
  return {
    toolName: 'write_file',
    args: { path },
    description: { kind: 'edit', locations: [{ path: join(workspace.root, path) }] },
  };
}

/** Answers "always allow" to `first` as offered, then decides `then` (as `later`). */
async function alwaysThen(
  first: (w: Workspace) => PermissionCheck,
  then: (w: Workspace) => PermissionCheck,
) {
  const { workspace, policy } = await setUp();
  const offered = await policy.decide(first(workspace));
  if (offered.decision === 'ask' && offered.allowAlways !== undefined) {
    await policy.remember?.(offered.allowAlways.rule, 'allow');
  }
  return {
    offered,
    later: await policy.decide(then(workspace)),
    first: await policy.decide(first(workspace)),
  };
}

describe('what "always" writes covers only what the person saw', () => {
  it('writes no rule for a file glob wider than the file: its name is escaped', async () => {
    for (const [name, other] of [
      ['**', '.github/workflows/ci.yml'],
      ['*', 'package.json'],
      ['[a-z]', 'q'],
      ['a*/x.ts', 'ab/x.ts'],
      ['app/[id]/page.tsx', 'app/i/page.tsx'],
      ['src/x.{ts,sh}', 'src/evil.sh'],
      ['@(a|b)', 'b'],
      ['!(x)', 'y'],
    ] as const) {
      const { offered, later, first } = await alwaysThen(
        (w) => write(w, name),
        (w) => write(w, other),
      );
      expect(offered, name).toMatchObject({ decision: 'ask', allowAlways: {} });
      // The rule allows the file that was approved, and its folder's files of its extension...
      expect(first, name).toMatchObject({ decision: 'allow' });
      // ...never another file because its name held a glob.
      expect(later, `${name} then ${other}`).toMatchObject({ decision: 'ask' });
    }
    const { later } = await alwaysThen(
      (w) => write(w, 'app/[id]/page.tsx'),
      (w) => write(w, 'app/[id]/layout.tsx'),
    );
    expect(later).toMatchObject({ decision: 'allow' });
  });

  it('offers no "always" for a command whose prefix has an empty word or one with a space', async () => {
    for (const [command, other] of [
      ['npm ""', 'npm publish'],
      ["git '' x", 'git push --force'],
      ['npm " "', 'npm exec rm'],
      ['npm "\u00a0"', 'npm publish'],
      ['"npm test" x', 'npm test'],
    ] as const) {
      const { offered, later } = await alwaysThen(
        (w) => run(w, command),
        (w) => run(w, other),
      );
      expect(offered, command).toEqual({ decision: 'ask' });
      expect(later, `${command} then ${other}`).toMatchObject({ decision: 'ask' });
    }
  });
});
