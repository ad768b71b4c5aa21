import { describe, expect, it } from 'vitest';
import { fileCheck as file, policySetUp, commandCheck as run } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const setUp = policySetUp(testFileFolder('dsh-policy-'));

describe('the permission policy', () => {
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
});
