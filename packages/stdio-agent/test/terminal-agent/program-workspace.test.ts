import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeWorkFolders, workFolder } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

// `--workspace DIR`: `pnpm start` runs in the clone of dsh, so this is how a person points the
// agent at a project of their own (issue 34, item 1).

afterEach(removeWorkFolders);

/** A folder holding `started` (where the program starts), `project` and a write script. */
function setUp() {
  const root = workFolder('dsh-workspace-flag-');
  const started = join(root, 'started');
  const project = join(root, 'project');
  mkdirSync(started);
  mkdirSync(project);
  const script = join(root, 'write.json');
  writeFileSync(
    script,
    JSON.stringify({
      steps: [
        {
          toolCalls: [
            { id: 'w', name: 'write_file', arguments: { path: 'notes.txt', content: 'hello\n' } },
          ],
        },
        { text: 'Written.' },
      ],
    }),
  );
  return { root, started, project, script };
}

describe('dsh-stdio-agent --workspace', () => {
  it('works in the folder it names (relative to where it started), not where it started', async () => {
    const { started, project, script } = setUp();
    const { code, stdout, stderr } = await runProgram(
      ['--workspace', '../project', '--script', script, '--no-history'],
      'write it\ny\n',
      {},
      { cwd: started },
    );
    expect(code).toBe(0);
    expect(stderr).toContain(`Workspace: ${project}\n`);
    expect(stdout).toContain('Written.');
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('hello\n');
    expect(existsSync(join(started, 'notes.txt'))).toBe(false);
  });

  it('a folder that does not exist, or a file, is a usage error: status 2, nothing run', async () => {
    const { started, script } = setUp();
    for (const given of ['../missing', '../write.json', '']) {
      const { code, stdout, stderr } = await runProgram(
        ['--workspace', given, '--script', script, '--no-history'],
        'write it\ny\n',
        {},
        { cwd: started },
      );
      expect({ code, stdout }).toEqual({ code: 2, stdout: '' });
      expect(stderr).toBe(
        'dsh-stdio-agent: --workspace needs a folder that exists (try dsh-stdio-agent --help)\n',
      );
    }
  });
});
