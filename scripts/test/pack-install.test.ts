import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packWorkspace, registryFlags, serveRegistry } from '../local-registry.mjs';

// A person's `npm install` of one package, in a fresh project: the published packages packed
// (the build is there: the tests' global setup makes it), served with what they need by a
// registry on loopback (`scripts/local-registry.mjs`), installed with npm and a cache of its own.
// npm's proxy points at a closed port, so a request anywhere but the loopback registry fails the
// install: nothing is downloaded. About 30 s, most of it npm.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);
/** A closed port: any request npm sends elsewhere than the registry fails. */
const NO_NETWORK = [
  '--proxy=http://127.0.0.1:9',
  '--https-proxy=http://127.0.0.1:9',
  '--noproxy=127.0.0.1',
];

let folder: string;
let registry: Awaited<ReturnType<typeof serveRegistry>>;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'dsh-pack-install-'));
  mkdirSync(join(folder, 'tarballs'));
  registry = await serveRegistry(packWorkspace(ROOT, join(folder, 'tarballs')));
}, 60_000);

afterAll(async () => {
  await registry?.close();
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

/** A fresh npm project with `names` installed from the registry; npm's output. */
async function install(project: string, names: string[]) {
  const dir = join(folder, project);
  mkdirSync(dir);
  writeFileSync(
    join(dir, 'package.json'),
    '{ "name": "app", "private": true, "type": "module" }\n',
  );
  const output = await run(
    'npm',
    ['install', ...registryFlags(registry.url, join(folder, 'cache')), ...NO_NETWORK, ...names],
    { cwd: dir, encoding: 'utf8' },
  );
  return { dir, output: `${output.stdout}${output.stderr}` };
}

/** Runs `code` as an ES module in `dir`; its stdout parsed as JSON. */
async function node(dir: string, code: string): Promise<unknown> {
  writeFileSync(join(dir, 'check.mjs'), code);
  const { stdout } = await run(process.execPath, ['check.mjs'], { cwd: dir, encoding: 'utf8' });
  return JSON.parse(stdout);
}

/** Every installed package (`@scope/name` included) with an install-time script. */
function withInstallScripts(dir: string): string[] {
  const modules = join(dir, 'node_modules');
  const names = readdirSync(modules).flatMap((name) =>
    name.startsWith('@')
      ? readdirSync(join(modules, name)).map((inner) => `${name}/${inner}`)
      : [name],
  );
  return names.filter((name) => {
    const file = join(modules, name, 'package.json');
    if (!existsSync(file)) return false;
    const { scripts = {} } = JSON.parse(readFileSync(file, 'utf8')) as { scripts?: object };
    return ['preinstall', 'install', 'postinstall'].some((script) => script in scripts);
  });
}

describe('a fresh npm project', () => {
  it('installs the permission policy alone: no agent, no model client, no install script', async () => {
    const { dir, output } = await install('policy', ['dsh-tools']);
    for (const absent of ['dsh-agent', 'openai', 'tree-sitter-bash'])
      expect(existsSync(join(dir, 'node_modules', absent)), absent).toBe(false);
    expect(withInstallScripts(dir)).toEqual([]);
    expect(output).not.toMatch(/warn/i);
    // The deny rule meets a command that is not plain through the Bash parser: the grammar
    // shipped in dsh-tools' dist/ loads without the tree-sitter-bash package.
    const result = await node(
      dir,
      `import { createPermissionPolicy, openWorkspace } from 'dsh-tools';
      const workspace = await openWorkspace(process.cwd());
      const policy = createPermissionPolicy({
        workspace,
        rules: { read: () => [], add: async () => {} },
        allow: ['run_command:echo'],
        deny: ['run_command:rm'],
      });
      const decide = (command) => policy.decide({
        toolName: 'run_command',
        args: { command },
        description: { kind: 'execute', command: { command, cwd: workspace.root } },
      });
      const hidden = await decide('for f in a; do rm -rf "$f"; done');
      const plain = await decide('echo hi');
      const commandLine = await import('dsh-tools/command-line').then(() => 'loaded', (error) => error.code);
      console.log(JSON.stringify({ hidden: hidden.decision, plain: plain.decision, commandLine }));`,
    );
    // The command-line subpath needs dsh-agent, its optional peer, which is not there.
    expect(result).toEqual({ hidden: 'deny', plain: 'allow', commandLine: 'ERR_MODULE_NOT_FOUND' });
  }, 60_000);

  it('imports the ACP question provider without the agent loop, its tools or MCP', async () => {
    const { dir, output } = await install('provider', ['dsh-acp', 'dsh-user-interaction']);
    expect(withInstallScripts(dir)).toEqual([]);
    expect(output).not.toMatch(/warn/i);
    // The agent server (the bin) needs them, so npm installs them: take them away.
    for (const name of ['dsh-agent', 'dsh-tools', 'dsh-mcp', 'openai', '@modelcontextprotocol'])
      rmSync(join(dir, 'node_modules', name), { recursive: true, force: true });
    const result = await node(
      dir,
      `import { createAcpQuestionProvider } from 'dsh-acp';
      import { createUserInteraction } from 'dsh-user-interaction';
      // An editor that shows forms and answers each with the name it is asked for.
      const sent = [];
      const client = {
        request: async (method, params) => {
          sent.push(method);
          const [field] = Object.keys(params.requestedSchema.properties);
          return { action: 'accept', content: { [field]: 'Ada' } };
        },
      };
      const interaction = createUserInteraction();
      interaction.registerProvider(createAcpQuestionProvider({
        connection: { client, signal: new AbortController().signal },
        clientCapabilities: { elicitation: { form: {} } },
        scopeFor: () => ({ sessionId: 's1' }),
      }));
      const answer = await interaction.ask({ question: 'Your name?', header: 'Name' });
      const server = await import('dsh-acp/server').then(() => 'loaded', (error) => error.code);
      console.log(JSON.stringify({ sent, answer: answer.text ?? answer, server }));`,
    );
    // The server, which needs the agent, fails to load: what was taken away was really needed.
    expect(result).toMatchObject({
      sent: ['elicitation/create'],
      server: 'ERR_MODULE_NOT_FOUND',
    });
    expect(JSON.stringify((result as { answer: unknown }).answer)).toContain('Ada');
  }, 60_000);
});
