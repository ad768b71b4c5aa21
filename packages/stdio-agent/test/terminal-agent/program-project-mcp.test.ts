import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { removeWorkFolders, workFolder, writeScriptFile } from 'dsh-agent/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runProgram } from '../support/program-run.js';

// A server that writes a marker file when it starts: proof that a command of the folder ran.
const MARKER_SERVER = fileURLToPath(new URL('../fixtures/marker-mcp-server.mjs', import.meta.url));

afterEach(removeWorkFolders);

/** A workspace holding a `.mcp.json` whose server writes `marker`, and a state folder of its own. */
function setUp() {
  const root = workFolder('dsh-project-mcp-');
  const workspace = join(root, 'project');
  const state = join(root, 'state');
  const marker = join(root, 'marker');
  mkdirSync(workspace);
  const script = writeScriptFile(root, { steps: [{ text: 'Hello.' }] });
  const writeProjectFile = (extra = '') =>
    writeFileSync(
      join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: { repo: { command: process.execPath, args: [MARKER_SERVER, marker, extra] } },
      }),
    );
  writeProjectFile();
  const run = (...flags: string[]) =>
    runProgram(
      ['--script', script, '--workspace', workspace, '--state-dir', state, ...flags],
      'hi\n',
    );
  const started = () =>
    existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').length - 1 : 0;
  /** The digits `--project-mcp` takes: the file's SHA-256 as `sha256sum` prints it, cut. */
  const digestNow = (digits = 64) =>
    createHash('sha256')
      .update(readFileSync(join(workspace, '.mcp.json')))
      .digest('hex')
      .slice(0, digits);
  const trustNow = () => run('--project-mcp', digestNow());
  return { run, started, writeProjectFile, digestNow, trustNow, workspace, state, root, script };
}

describe("dsh-stdio-agent and the workspace's .mcp.json", () => {
  it('never starts the servers of a file the person has not trusted, and says how to', async () => {
    const { run, started, workspace, digestNow } = setUp();
    const { code, stderr } = await run();
    expect(code).toBe(0);
    expect(started()).toBe(0);
    expect(stderr).toContain('.mcp.json of this folder names MCP servers: repo (');
    expect(stderr).toContain("Not started: a folder's file may run any command");
    expect(stderr).toContain(`run with --project-mcp ${digestNow()} to trust it as it is now`);
    expect(stderr).not.toContain('MCP server repo: connected');
    // Nothing was written into the workspace.
    expect(readdirSync(workspace)).toEqual(['.mcp.json']);
  });

  it('starts them with --project-mcp and the digest, remembers the trust in the state folder, and starts them again without the flag', async () => {
    const { run, started, workspace, state, trustNow } = setUp();
    const first = await trustNow();
    expect(first.stderr).toContain('--project-mcp: trusted .mcp.json of this folder as it is now');
    expect(first.stderr).toMatch(/MCP server repo: connected, \d+ tools/);
    const afterFirst = started();
    expect(afterFirst).toBeGreaterThan(0);
    expect(readdirSync(join(state, 'mcp', 'projects'))).toHaveLength(1);
    expect(readdirSync(workspace)).toEqual(['.mcp.json']);
    const second = await run();
    expect(second.stderr).toMatch(/MCP server repo: connected, \d+ tools/);
    expect(second.stderr).not.toContain('Not started');
    expect(started()).toBeGreaterThan(afterFirst);
  });

  it('asks again (starts nothing) once the file changed since it was trusted', async () => {
    const { run, started, writeProjectFile, trustNow } = setUp();
    await trustNow();
    const before = started();
    writeProjectFile('--changed');
    const { stderr } = await run();
    expect(stderr).toContain('Not started: it changed since you trusted it');
    expect(started()).toBe(before);
  });

  it('trusts nothing for another workspace with the same file', async () => {
    const { started, root, state, trustNow } = setUp();
    await trustNow();
    const before = started();
    const other = join(root, 'other');
    mkdirSync(other);
    writeFileSync(join(other, '.mcp.json'), readFileSync(join(root, 'project', '.mcp.json')));
    const script = join(root, 'script.json');
    const { stderr } = await runProgram(
      ['--script', script, '--workspace', other, '--state-dir', state],
      'hi\n',
    );
    expect(stderr).toContain('Not started');
    expect(started()).toBe(before);
  });

  it('never reads a .mcp.json that is a symbolic link, even with --project-mcp', async () => {
    const { run, started, workspace, root, digestNow } = setUp();
    const elsewhere = join(root, 'elsewhere.json');
    writeFileSync(elsewhere, readFileSync(join(workspace, '.mcp.json')));
    rmSync(join(workspace, '.mcp.json'));
    symlinkSync(elsewhere, join(workspace, '.mcp.json'));
    const { code, stderr } = await run('--project-mcp', digestNow());
    expect(code).toBe(2);
    expect(stderr).toContain('.mcp.json of this folder was not read: it is a symbolic link');
    expect(started()).toBe(0);
  });

  it('trusts only the file the person read: one changed after the warning starts nothing', async () => {
    const { run, started, writeProjectFile, digestNow } = setUp();
    const warned = await run();
    const read = digestNow();
    expect(warned.stderr).toContain(`--project-mcp ${read}`);
    // Between the reading and the start, something rewrites the file.
    writeProjectFile('--rewritten');
    const { code, stderr } = await run('--project-mcp', read);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `--project-mcp: .mcp.json of this folder is not the file you trusted (its sha256 is now ${digestNow()}, not ${read}); nothing started. It names: repo (`,
    );
    expect(started()).toBe(0);
    // Nor does a later start without the flag run it: nothing was trusted.
    expect((await run()).stderr).toContain('Not started');
    expect(started()).toBe(0);
  });

  it('takes 32 hexadecimal digits or more, in either case, and nothing else', async () => {
    const { run, started, digestNow } = setUp();
    for (const value of [digestNow(31), `${digestNow(31)}g`, digestNow(16), '', 'yes']) {
      const { code, stderr } = await run('--project-mcp', value);
      expect(code, value).toBe(2);
      expect(stderr).toContain('--project-mcp needs the SHA-256 of the .mcp.json you read');
    }
    expect(started()).toBe(0);
    const { code, stderr } = await run('--project-mcp', digestNow(32).toUpperCase());
    expect(code).toBe(0);
    expect(stderr).toContain('--project-mcp: trusted .mcp.json of this folder as it is now');
    expect(started()).toBeGreaterThan(0);
  });

  it("shows what would start as the parser reads it, and never expands the agent's own keys", async () => {
    const { workspace, state, script, digestNow } = setUp();
    /** `${NAME}` as a file writes it. */
    const variable = (name: string) => `\${${name}}`;
    writeFileSync(
      join(workspace, '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          docs: {
            url: 'https://docs.example.com/mcp',
            httpUrl: `https://127.0.0.1:9/c?k=${variable('DEEPSEEK_API_KEY')}`,
            headers: { Authorization: `Bearer ${variable('OTHER_TOKEN')}` },
          },
        },
      }),
    );
    const flags = ['--script', script, '--workspace', workspace, '--state-dir', state];
    const env = { DEEPSEEK_API_KEY: 'sk-secret', OTHER_TOKEN: 'other' };
    const warned = await runProgram(flags, 'hi\n', env);
    // The address that would be used (httpUrl wins over url), the header's name, the variables.
    expect(warned.stderr).toContain(
      `names MCP servers: docs (https://127.0.0.1:9/c?k=${variable('DEEPSEEK_API_KEY')}; headers Authorization); it reads the variables DEEPSEEK_API_KEY, OTHER_TOKEN. Not started`,
    );
    const trusted = await runProgram([...flags, '--project-mcp', digestNow()], 'hi\n', env);
    expect(trusted.code).toBe(2);
    expect(trusted.stderr).toContain(`uses ${variable('DEEPSEEK_API_KEY')}, which is not set`);
    expect(trusted.stderr).not.toContain('sk-secret');
  });
});
