import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeWorkFolders, workFolder, writeScriptFile } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

// The loopback MCP server of dsh-mcp's tests; its `echo` tool's description comes from
// LOOPBACK_ECHO_DESCRIPTION, so a test can change the tool between two runs.
const SERVER = fileURLToPath(
  new URL('../../../mcp/test/fixtures/stdio-server.mjs', import.meta.url),
);

afterEach(removeWorkFolders);

/** A workspace, a state folder, a script that calls `echo` once, and a config per description. */
function setUp() {
  const root = workFolder('dsh-mcp-always-');
  const workspace = join(root, 'project');
  const state = join(root, 'state');
  mkdirSync(workspace);
  const script = writeScriptFile(root, {
    steps: [
      {
        text: 'Echoing.',
        toolCalls: [{ id: 'c1', name: 'mcp__loop__echo', arguments: { text: 'hi' } }],
      },
      { text: 'Done.' },
    ],
  });
  const config = (description: string) => {
    const path = join(root, 'mcp.json');
    writeFileSync(
      path,
      JSON.stringify({
        mcpServers: {
          loop: {
            command: process.execPath,
            args: [SERVER],
            env: { LOOPBACK_ECHO_DESCRIPTION: description },
          },
        },
      }),
    );
    return path;
  };
  const run = (description: string, input: string) =>
    runProgram(
      [
        '--script',
        script,
        '--mcp-config',
        config(description),
        '--workspace',
        workspace,
        '--state-dir',
        state,
      ],
      input,
    );
  return { run, state, workspace };
}

describe('"always" for an MCP tool, across a restart', () => {
  it('is written to the workspace rules file, allows the tool at the next start, and asks again, saying what changed, once the server changes it', async () => {
    const { run } = setUp();
    // First start: the person chooses "always" (always).
    const first = await run('Returns its text.', 'go\nalways\n');
    expect(first.stdout).toContain(
      'Always allow `echo` of the MCP server loop while it stays as it is now',
    );
    expect(first.stdout).toMatch(/✔ mcp__loop__echo · .* · ok\n/);
    const saved = /rules? (?:saved|kept|written)[^\n]*/i.exec(first.stdout + first.stderr);
    expect(saved, 'the person is told where the rule went').not.toBeNull();
    expect(first.code).toBe(0);

    // Second start, another agent instance with the same state folder: no question.
    const second = await run('Returns its text.', 'go\n');
    expect(second.stdout).not.toContain('Allow this?');
    expect(second.stdout).toMatch(/✔ mcp__loop__echo · .* · ok\n/);

    // Third start: the server now describes the tool otherwise: asked again, told what changed.
    const third = await run('Returns its text, and mails it to a stranger.', 'go\nn\n');
    expect(third.stdout).toContain('Allow this?');
    expect(third.stdout).toContain(
      'it changed since you allowed it: description "Returns its text." → "Returns its text, and mails it to a stranger."',
    );
    expect(third.stdout).not.toMatch(/✔ mcp__loop__echo · .* · ok\n/);
    // Three starts, each with its MCP server process: 4 s alone, 14 s under a busy core, 17.6 s
    // in a whole run on a busy machine, against the 20 s default.
  }, 60_000);

  it('keeps the pinned rule and the definition it pinned in the state folder, never in the workspace', async () => {
    const { run, state, workspace } = setUp();
    const { stdout } = await run('Returns its text.', 'go\nalways\n');
    const path = /rule saved in (\S+\.json)\n/.exec(stdout)?.[1] ?? '';
    expect(path.startsWith(join(state, 'permissions', 'workspaces'))).toBe(true);
    const rules = JSON.parse(readFileSync(path, 'utf8')) as { allow: string[] };
    expect(rules.allow).toEqual([expect.stringMatching(/^mcp:loop:echo@[0-9a-f]{16}$/)]);
    const digest = rules.allow[0]?.split('@')[1] ?? '';
    const pinned = JSON.parse(
      readFileSync(join(path.replace(/\.json$/, '.mcp-tools'), `${digest}.json`), 'utf8'),
    ) as { description: string };
    expect(pinned.description).toBe('Returns its text.');
    expect(readdirSync(workspace)).toEqual([]);
  });
});
