import { spawn } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy, openWorkspace } from '../../src/index.js';
import { commandCheck, fileCheck } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-policy-');
let count = 0;

async function setUp(
  options: { allow?: string[]; deny?: string[]; mode?: 'ask' | 'read-only' } = {},
) {
  const folder = join(base, `w${++count}`);
  mkdirSync(join(folder, 'src'), { recursive: true });
  const workspace = await openWorkspace(folder);
  const stateDir = join(base, `state${count}`);
  return {
    workspace,
    stateDir,
    policy: createPermissionPolicy({ workspace, stateDir, ...options }),
  };
}

const run = commandCheck;
const file = fileCheck;

describe('the permission policy', () => {
  it('lets reads inside the workspace run, and asks for everything that acts', async () => {
    const { workspace, policy } = await setUp();
    expect(await policy.decide(file(workspace, 'read_file', 'src/a.ts', 'read'))).toMatchObject({
      decision: 'allow',
      decidedBy: { kind: 'policy' },
    });
    expect(await policy.decide(file(workspace, 'edit_file', 'src/a.ts'))).toEqual({
      decision: 'ask',
      allowAlways: {
        rule: 'edit_file:src/*.ts',
        description: 'Always allow edit_file on `src/*.ts` in this folder',
      },
      rejectAlways: {
        rule: 'edit_file:src/*.ts',
        description: 'Always reject edit_file on `src/*.ts` in this folder',
      },
    });
    expect(await policy.decide(file(workspace, 'write_file', 'README.md'))).toMatchObject({
      allowAlways: { rule: 'write_file:README.md' },
    });
    expect(await policy.decide(run(workspace, 'npm test -- --watch'))).toMatchObject({
      decision: 'ask',
      allowAlways: {
        rule: 'run_command:npm test',
        description: 'Always allow `npm test` in this folder',
      },
    });
  });

  it('always asks for a path outside the workspace, reads included, and offers no "always"', async () => {
    const { workspace, policy } = await setUp({ allow: ['read_file', 'edit_file'] });
    for (const check of [
      file(workspace, 'read_file', '/etc/passwd', 'read'),
      file(workspace, 'edit_file', '/etc/hosts'),
    ]) {
      expect(await policy.decide(check)).toEqual({ decision: 'ask' });
    }
    const outside = run(workspace, 'ls');
    expect(
      await policy.decide({
        ...outside,
        description: { ...outside.description, command: { command: 'ls', cwd: '/' } },
      }),
    ).toEqual({ decision: 'ask' });
  });

  it('allows a command only when every part is allowed; deny wins', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:npm test', 'run_command:git status'],
      deny: ['run_command:rm'],
    });
    expect(await policy.decide(run(workspace, 'npm test && npm test --coverage'))).toMatchObject({
      decision: 'allow',
      decidedBy: { kind: 'rule', rule: 'run_command:npm test', source: '--allow' },
    });
    expect(await policy.decide(run(workspace, 'git status; npm test'))).toMatchObject({
      decision: 'allow',
    });
    expect(await policy.decide(run(workspace, 'npm testing'))).toMatchObject({ decision: 'ask' });
    const sneaky = [
      'git status; rm -rf x',
      'git status && env rm -rf x',
      'npm test | /bin/rm -rf x',
      'npm test; \\rm x',
      'FOO=1 rm x',
      'bash -c "rm x"',
      'find . -exec rm {} \\;',
      'git status | xargs rm',
      'npm test $(rm x)',
      'npm test `rm x`',
      'npm test <<EOF\n$(rm x)\nEOF',
      'VAR=x; rm y',
      'npm test & ./rm',
      'sudo rm x',
      'timeout 5 rm x',
      'nice -n 5 rm x',
    ];
    for (const command of sneaky) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
        decidedBy: { rule: 'run_command:rm' },
      });
    }
  });

  it('closes the gaps a second review found: sudo, PATH, options inside a denied command, read-only deny', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:npm test', 'run_command:git status'],
      deny: ['run_command:git push', 'read_file:secrets/**'],
    });
    // An allow rule never becomes a way to run as root; a deny rule still sees through sudo.
    expect(await policy.decide(run(workspace, 'sudo npm test'))).toEqual({ decision: 'ask' });
    // Nor through a script run as root: `sudo bash -c 'npm test'` was allowed by `npm test`.
    for (const command of [
      "sudo bash -c 'npm test'",
      "su -c 'npm test'",
      'sudo find . -exec npm test \\;',
      'pkexec npm test',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // A wrapper the rules did not know hid a denied command, and "always" named the wrapper.
    for (const command of ['setsid git push', "watch 'git push'", 'ionice -c 3 git push']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
      });
    }
    // `setsid` lets what it starts outlive the command: asked, and "always" never names a
    // command the line does not begin with.
    expect(await policy.decide(run(workspace, 'setsid npm test'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'setsid ls -la'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'parallel npm test ::: a'))).toEqual({
      decision: 'ask',
    });
    expect(await policy.decide(run(workspace, 'doas -u root git push'))).toMatchObject({
      decision: 'deny',
    });
    // A command that puts its own programs first on the path is never allowed by a rule.
    for (const command of [
      'PATH=/tmp npm test',
      'PATH=/tmp; npm test',
      'export PATH=/tmp; npm test',
      'env PATH=/tmp npm test',
      'LD_PRELOAD=/tmp/x.so git status',
      'NODE_OPTIONS=--require=/tmp/x npm test',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    expect(await policy.decide(run(workspace, 'CI=1 npm test'))).toMatchObject({
      decision: 'allow',
    });
    // Options between a denied command's words: still denied, and "always git" is never offered.
    expect(await policy.decide(run(workspace, 'git -C sub push origin main'))).toMatchObject({
      decision: 'deny',
      decidedBy: { rule: 'run_command:git push' },
    });
    expect(await policy.decide(run(workspace, 'git -C sub log'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'make'))).toEqual({ decision: 'ask' });
    const readOnly = createPermissionPolicy({
      workspace,
      stateDir: join(base, 'ro'),
      deny: ['read_file:secrets/**'],
      mode: 'read-only',
    });
    expect(
      await readOnly.decide(file(workspace, 'read_file', 'secrets/key', 'read')),
    ).toMatchObject({ decision: 'deny', decidedBy: { kind: 'rule' } });
    expect(await readOnly.decide(file(workspace, 'read_file', 'src/a.ts', 'read'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('never allows, nor offers to always allow, what cannot be checked', async () => {
    const { workspace, policy } = await setUp({ allow: ['run_command:echo', 'run_command:npm'] });
    for (const command of [
      'eval "rm x"',
      '$CMD',
      'echo "unclosed',
      'npm test > /etc/passwd',
      'source x.sh',
      'bash -c "$X"',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // A # inside a quoted multi-line string is not a comment hiding the rest.
    expect(await policy.decide(run(workspace, 'echo "a\n# b"; rm x'))).toMatchObject({
      decision: 'ask',
    });
    // A brace list is expanded when it runs: not a plain script.
    expect(await policy.decide(run(workspace, 'echo {a,b}; npm ci'))).toEqual({ decision: 'ask' });
    expect(await policy.decide(run(workspace, 'echo a,b; npm ci'))).toMatchObject({
      decision: 'allow',
    });
    expect(await policy.decide(run(workspace, 'npm test 2>&1 >/dev/null'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('never offers an "always" rule that reads back as a shorter prefix than the command’s words', async () => {
    const { workspace, policy } = await setUp();
    // Stored as `run_command:git `, each of these read back as every git (npx, make, gh pr) command.
    for (const command of [
      'git "" status',
      "npx ' ' cowsay",
      'make ""',
      'gh pr ""',
      "git 'status --force'",
      '"" git',
      "git $'status\\x01'",
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    expect(await policy.decide(run(workspace, 'git status'))).toMatchObject({
      allowAlways: { rule: 'run_command:git status' },
    });
  });

  it('offers an "always" rule for a file whose glob matches the file’s own folder only, glob characters and all', async () => {
    const cases: [string, string, string[], string[]][] = [
      // [path, rule offered, allowed once remembered, still asked]
      ['**', 'write_file:\\*\\*', ['**'], ['package.json', 'src/a.ts', '.github/workflows/ci.yml']],
      ['*', 'write_file:\\*', ['*'], ['package.json', '.env']],
      ['*/x.ts', 'write_file:\\*/*.ts', ['*/y.ts'], ['src/a.ts']],
      [
        'app/(auth)/page.tsx',
        'write_file:app/\\(auth\\)/*.tsx',
        ['app/(auth)/login.tsx'],
        ['app/auth/page.tsx'],
      ],
      ['src/[a-z]/x.ts', 'write_file:src/\\[a-z\\]/*.ts', ['src/[a-z]/y.ts'], ['src/b/x.ts']],
      ['{src,.github}/x.yml', 'write_file:\\{src,.github\\}/*.yml', [], ['.github/x.yml']],
      ['a/@(x|b)/y.ts', 'write_file:a/\\@\\(x\\|b\\)/*.ts', [], ['a/b/y.ts', 'a/x/y.ts']],
      ['src/a$b^/x.ts', 'write_file:src/a$b^/*.ts', ['src/a$b^/y.ts'], ['src/ab/x.ts']],
    ];
    for (const [path, rule, allowed, asked] of cases) {
      const { workspace, policy } = await setUp();
      const verdict = await policy.decide(file(workspace, 'write_file', path));
      expect(verdict, path).toMatchObject({ decision: 'ask', allowAlways: { rule } });
      await policy.remember?.(rule, 'allow');
      for (const other of [path, ...allowed]) {
        expect(await policy.decide(file(workspace, 'write_file', other)), other).toMatchObject({
          decision: 'allow',
        });
      }
      for (const other of asked) {
        expect(await policy.decide(file(workspace, 'write_file', other)), other).toMatchObject({
          decision: 'ask',
        });
      }
    }
  });

  it('offers "always" for a runner with the command it runs, never the runner alone', async () => {
    const { workspace, policy } = await setUp();
    // Before, `pnpm exec tsc` offered `pnpm exec`, which allowed `pnpm exec rm -rf x`.
    const runners: [string, string][] = [
      ['pnpm exec tsc --noEmit', 'pnpm exec tsc'],
      ['npm exec eslint .', 'npm exec eslint'],
      ['yarn dlx create-app x', 'yarn dlx create-app'],
      ['bun x prettier .', 'bun x prettier'],
      ['bunx tsc', 'bunx tsc'],
      ['uvx ruff check', 'uvx ruff'],
      ['deno run main.ts', 'deno run main.ts'],
      ['go run ./cmd/server', 'go run ./cmd/server'],
      // In a container: the container, then the command run in it.
      ['docker exec web ls', 'docker exec web ls'],
      ['podman run alpine ls', 'podman run alpine ls'],
      ['pipx run cowsay hi', 'pipx run cowsay'],
    ];
    for (const [command, prefix] of runners) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        allowAlways: { rule: `run_command:${prefix}` },
      });
    }
    // An option where the command's name should be: nothing says what it runs.
    expect(await policy.decide(run(workspace, 'docker run --rm alpine sh'))).toEqual({
      decision: 'ask',
    });
    await policy.remember?.('run_command:pnpm exec tsc', 'allow');
    await policy.remember?.('run_command:docker exec web ls', 'allow');
    for (const command of ['pnpm exec rm -rf x', 'docker exec web rm -rf /data']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'ask',
      });
    }
    // Setting a running process's scheduling names no command: "always" names the tool.
    expect(await policy.decide(run(workspace, 'chrt -p 10 1234'))).toMatchObject({
      allowAlways: { rule: 'run_command:chrt' },
    });
  });

  it('offers "always" for an interpreter with the script it runs, never the interpreter alone', async () => {
    const { workspace, policy } = await setUp();
    // Before, `node build.js` offered `node`, which then allowed `node -e …`; `python3 -m
    // pytest` offered `python3 -m`, which allowed every module (`python3 -m http.server`).
    const scripts: [string, string][] = [
      ['node build.js --watch', 'node build.js'],
      ['python3 -m pytest -q', 'python3 -m pytest'],
      ['python manage.py migrate', 'python manage.py'],
      ['bash scripts/setup.sh', 'bash scripts/setup.sh'],
      ['sh ./configure', 'sh ./configure'],
      ['ruby bin/rails', 'ruby bin/rails'],
      ['tsx src/cli.ts', 'tsx src/cli.ts'],
    ];
    for (const [command, prefix] of scripts) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        allowAlways: { rule: `run_command:${prefix}` },
      });
    }
    // Code given on the command line, or read from the input: nothing names what it runs.
    for (const command of ['node -e "1"', 'python3 -c "1"', 'python3 -', 'node', 'perl -e 1']) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    await policy.remember?.('run_command:node build.js', 'allow');
    await policy.remember?.('run_command:python3 -m pytest', 'allow');
    for (const command of ['node -e "1"', 'node other.js', 'python3 -m http.server']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'ask',
      });
    }
    expect(await policy.decide(run(workspace, 'node build.js --prod'))).toMatchObject({
      decision: 'allow',
    });
  });

  it('runs nothing that acts in read-only mode, and asks nothing', async () => {
    const { workspace, policy } = await setUp({ mode: 'read-only', allow: ['run_command:ls'] });
    expect(await policy.decide(file(workspace, 'search', 'src', 'search'))).toMatchObject({
      decision: 'allow',
    });
    for (const check of [
      run(workspace, 'ls'),
      file(workspace, 'edit_file', 'src/a.ts'),
      file(workspace, 'read_file', '/etc/passwd', 'read'),
    ]) {
      expect(await policy.decide(check)).toMatchObject({
        decision: 'deny',
        decidedBy: { kind: 'policy', reason: expect.stringContaining('read-only mode') },
      });
    }
  });

  it('remembers "always" in the workspace’s rules file, seen at once by another session', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const other = createPermissionPolicy({ workspace, stateDir });
    expect(await other.decide(run(workspace, 'npm test'))).toMatchObject({ decision: 'ask' });
    await policy.remember?.('run_command:npm test', 'allow');
    await policy.remember?.('edit_file:src/*.ts', 'deny');
    expect(await other.decide(run(workspace, 'npm test -- -u'))).toMatchObject({
      decision: 'allow',
      decidedBy: { source: expect.stringContaining('workspace rules') },
    });
    expect(await other.decide(file(workspace, 'edit_file', 'src/b.ts'))).toMatchObject({
      decision: 'deny',
    });
    const saved = JSON.parse(readFileSync(policy.files.workspace, 'utf8'));
    expect(saved).toEqual({
      version: 1,
      workspace: workspace.root,
      allow: ['run_command:npm test'],
      deny: ['edit_file:src/*.ts'],
    });
    expect(statSync(policy.files.workspace).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(policy.files.workspace)).mode & 0o777).toBe(0o700);
    expect(policy.rules()).toEqual([
      {
        rule: 'edit_file:src/*.ts',
        effect: 'deny',
        source: 'workspace rules',
        path: policy.files.workspace,
      },
      {
        rule: 'run_command:npm test',
        effect: 'allow',
        source: 'workspace rules',
        path: policy.files.workspace,
      },
    ]);
  });

  it('decides a command decided before against the rules as they are now', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const other = createPermissionPolicy({ workspace, stateDir });
    const command = 'npm test && echo "done" && git status --short | grep src';
    expect(await policy.decide(run(workspace, command))).toMatchObject({ decision: 'ask' });
    for (const rule of ['npm test', 'echo', 'git status', 'grep']) {
      await other.remember?.(`run_command:${rule}`, 'allow');
    }
    expect(await policy.decide(run(workspace, command))).toMatchObject({
      decision: 'allow',
      decidedBy: {
        rule: 'run_command:npm test, run_command:echo, run_command:git status, run_command:grep',
      },
    });
    // The person's own file, written by another process.
    mkdirSync(dirname(policy.files.user), { recursive: true, mode: 0o700 });
    writeFileSync(
      policy.files.user,
      JSON.stringify({ version: 1, allow: [], deny: ['run_command:git status'] }),
      { mode: 0o600 },
    );
    expect(await policy.decide(run(workspace, command))).toMatchObject({
      decision: 'deny',
      decidedBy: { rule: 'run_command:git status', source: expect.stringContaining('your rules') },
    });
  });

  it('loses no rule when two processes remember at the same time', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const script = (rule: string) => `
      import { createPermissionPolicy, openWorkspace } from ${JSON.stringify(new URL('../../src/index.ts', import.meta.url).pathname)};
      const policy = createPermissionPolicy({ workspace: await openWorkspace(${JSON.stringify(workspace.root)}), stateDir: ${JSON.stringify(stateDir)} });
      for (let i = 0; i < 10; i++) await policy.remember(${JSON.stringify(rule)} + i, 'allow');`;
    const child = (rule: string) =>
      new Promise<number>((resolve) => {
        const process = spawn(
          'node',
          ['--import', 'tsx', '--input-type=module', '-e', script(rule)],
          { stdio: 'inherit' },
        );
        process.on('exit', (code) => resolve(code ?? -1));
      });
    expect(await Promise.all([child('run_command:a'), child('run_command:b')])).toEqual([0, 0]);
    expect(
      policy
        .rules()
        .map((rule) => rule.rule)
        .sort(),
    ).toHaveLength(20);
  }, 30_000);

  it('refuses a damaged, symlinked, FIFO, foreign or world-writable rules file, never half-reading it', async () => {
    const { workspace, stateDir, policy } = await setUp();
    const path = policy.files.workspace;
    mkdirSync(dirname(path), { recursive: true });
    const expectRefused = async (why: RegExp) => {
      const fresh = createPermissionPolicy({ workspace, stateDir });
      await expect(fresh.decide(run(workspace, 'ls'))).rejects.toMatchObject({
        code: 'RULES_FILE_INVALID',
        message: expect.stringMatching(why),
      });
    };
    writeFileSync(path, '{"version":1,"allow":["run_command:ls"', { mode: 0o600 });
    await expectRefused(/not valid JSON/);
    writeFileSync(path, '{"version":2,"allow":[]}');
    await expectRefused(/newer version/);
    writeFileSync(path, '{"version":1,"allow":["run_command:ls", ":bad"]}');
    await expectRefused(/allow\[1\]/);
    writeFileSync(path, '{"version":1,"allow":["run_command:ls"]}');
    chmodSync(path, 0o666);
    await expectRefused(/can be written by other users.*chmod 600/);
    rmSync(path);
    const target = join(base, `elsewhere${count}.json`);
    writeFileSync(target, '{"version":1,"allow":["run_command"]}', { mode: 0o600 });
    symlinkSync(target, path);
    await expectRefused(/symbolic link/);
    rmSync(path);
    await new Promise<void>((resolve, reject) =>
      spawn('mkfifo', [path]).on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error('mkfifo')),
      ),
    );
    await expectRefused(/not a regular file/);
    rmSync(path);
    if (process.getuid?.() === 0) {
      writeFileSync(path, '{"version":1,"allow":["run_command"]}', { mode: 0o600 });
      chownSync(path, 12345, 12345);
      await expectRefused(/another user/);
    }
  });

  it('refuses a rule that is not TOOL or TOOL:PATTERN', async () => {
    const { workspace, stateDir } = await setUp();
    for (const rule of [
      '',
      ':x',
      'run command',
      'edit_file:',
      'edit_file:../x',
      'edit_file:/etc/*',
    ]) {
      expect(() => createPermissionPolicy({ workspace, stateDir, allow: [rule] }), rule).toThrow(
        /TOOL or TOOL:PATTERN/,
      );
    }
  });

  it('never allows a command built to look allowed unless every part is (fuzz)', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:npm test', 'run_command:git status'],
    });
    const pieces = fc.constantFrom(
      'npm test',
      'git status',
      'rm -rf x',
      '$(rm x)',
      '`rm x`',
      'env rm x',
      'bash -c "rm x"',
      '\\rm x',
      '/bin/rm x',
    );
    const separators = fc.constantFrom(' && ', ' || ', '; ', ' | ', ' & ', '\n');
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(pieces, separators), { minLength: 1, maxLength: 6 }),
        async (list) => {
          const command = list
            .map(([piece, separator]) => piece + separator)
            .join('')
            .trimEnd();
          const verdict = await policy.decide(run(workspace, command));
          const onlyAllowed = list.every(
            ([piece]) => piece === 'npm test' || piece === 'git status',
          );
          if (verdict.decision === 'allow') expect(onlyAllowed, command).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 200 }), async (command) => {
        await policy.decide(run(workspace, command));
      }),
      { numRuns: 200 },
    );
  });
});
