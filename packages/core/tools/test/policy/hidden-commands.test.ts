// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the strings are shell commands, whose ${ } is bash's.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandCheck, commandPolicy } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';

const base = testFileFolder('dsh-hidden-');
let count = 0;

async function setUp(options: { allow?: string[]; deny?: string[] }) {
  const { workspace, policy } = await commandPolicy(base, options);
  return { workspace, policy };
}

const run = commandCheck;

/** Runs `command` with bash in a folder of its own, and says whether it made the file `pwned`. */
function runsHiddenCommand(command: string): boolean {
  const folder = join(base, `bash${++count}`);
  mkdirSync(folder);
  try {
    // `wait $!` waits for a process substitution, which bash does not wait for by itself.
    spawnSync('bash', ['-c', `${command}\nwait $!`], {
      cwd: folder,
      stdio: 'ignore',
      env: { PATH: process.env.PATH },
    });
    return existsSync(join(folder, 'pwned'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

describe('commands that run more than their parts show', () => {
  it('asks where bash evaluates text as arithmetic or as a name (a subscript in it runs a command)', async () => {
    const { workspace, policy } = await setUp({
      allow: [
        'run_command:echo',
        'run_command:cat',
        'run_command:test',
        'run_command:unset',
        'run_command:printf',
        'run_command:ls',
      ],
    });
    for (const command of [
      "x='a[$(touch pwned)]'; echo $((x))",
      "x='a[$(touch pwned)]'; echo $[x]",
      "x='a[$(touch pwned)]'; y=abc; echo ${y/a/$[x]}",
      "x='a[$(touch pwned)]'; cat <<-EOF\n\t$[x]\n\tEOF",
      "x='a[$(touch pwned)]'; cat <<-EOF\n\t${!x}\n\tEOF",
      "x='$(touch pwned)'; cat <<-EOF\n\t${x@P}\n\tEOF",
      "echo='a[$(touch pwned)]'; cat <<EOF\n$((echo))\nEOF",
      "echo='a[$(touch pwned)]'; echo ${x:-$((echo))}",
      "x='$(touch pwned)'; echo ${x@P}",
      "x='a[$(touch pwned)]'; echo ${!x}",
      "x='a[$(touch pwned)]'; echo ${a[x]}",
      "for x in 'a[$(touch pwned)]'; do echo $((x)); done",
      "x='a[$(touch pwned)]'; ((x)); echo",
      "x='a[$(touch pwned)]'; [[ $x -eq 0 ]]; echo",
      "x='a[$(touch pwned)]'; for ((i = x; i < 0; i++)); do :; done; echo",
      "test -v 'a[$(touch pwned)]'",
      "a=(1); unset 'a[$(touch pwned)]'",
      "printf -v 'a[$(touch pwned)]' 1",
      "echo() { builtin echo $(($1)); }; echo 'a[$(touch pwned)]'",
      "declare -i n; n='a[$(touch pwned)]'; echo",
    ]) {
      // The attack is real: bash runs the hidden `touch`.
      expect(runsHiddenCommand(command), command).toBe(true);
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // Substitutions after the operators of `${…}`, which the parser does not read.
    for (const command of [
      'echo ${PWD#$(touch pwned)}',
      'echo ${PWD%%$(touch pwned)}',
      'echo ${PWD,,$(touch pwned)}',
      'echo ${PWD/a/`touch pwned`}',
      'echo ${x:-`touch pwned`}',
      'echo "${x-`touch pwned`}"',
      'echo ${x:-${y:-`touch pwned`}}',
      'echo ${x:-<(touch pwned)}',
      // Nor one joined by a line continuation inside double quotes.
      'echo "$\\\n(touch pwned)"',
      'cat <<EOF\n$\\\n(touch pwned)\nEOF',
      // Nor backticks in a heredoc, nor anything in a `<<-` heredoc's lines that start with a tab.
      'cat <<EOF\n`touch pwned`\nEOF',
      'cat <<-EOF\n\t$(touch pwned)\n\tEOF',
    ]) {
      expect(runsHiddenCommand(command), command).toBe(true);
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // Backticks in backticks: bash unescapes the inner ones, then runs what they hold.
    for (const command of ['echo `echo \\`touch pwned\\``', 'echo "`echo \\`touch pwned\\``"']) {
      expect(runsHiddenCommand(command), command).toBe(true);
      // Not a plain script: asked, and "always" is never offered.
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // Every expansion asks now, even harmless ones: only a plain script may be allowed by a rule.
    for (const command of [
      'echo $((1 + 2))',
      'echo ${x:-default} ${x:1:2} ${a[0]} ${a[@]} ${#x}',
      'test -n "$x"',
      'echo `cat \\`ls\\``',
      "cat <<'EOF'\n`not run`\nEOF",
      'cat <<-EOF\n\thello $HOME\n\tEOF',
      'echo "a\\\nb"',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // Quoted text that only looks like a substitution is plain, and allowed.
    for (const command of ["echo 'a[$(not run)]'", "printf '%s\\n' 'a[$x]'", 'echo "a\\$b"']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'allow',
      });
    }
  });

  it('never lets a rule for cd take the rest of a command out of the workspace', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:cd', 'run_command:ls', 'run_command:npm test'],
    });
    mkdirSync(join(workspace.root, 'src'));
    const outside = join(base, `outside${++count}`);
    mkdirSync(outside);
    symlinkSync(outside, join(workspace.root, 'link'));
    for (const command of [
      'cd / && ls',
      'cd ~ && ls',
      'cd && npm test',
      'cd .. && npm test',
      'cd - && ls',
      'cd link && ls',
      `cd ${outside} && ls`,
      'cd src && cd ../.. && ls',
      'popd; ls',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'ask',
      });
    }
    for (const command of ['cd src && ls', `cd ${join(workspace.root, 'src')} && npm test`]) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'allow',
      });
    }
  });

  it('judges $(< file) as cat, not as the command it is given to', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:echo'],
      deny: ['run_command:cat'],
    });
    for (const command of ['echo "$(< ~/.ssh/id_rsa)"', 'echo $(</etc/passwd)']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
        decidedBy: { rule: 'run_command:cat' },
      });
    }
    const echoOnly = await setUp({ allow: ['run_command:echo'] });
    expect(
      await echoOnly.policy.decide(run(echoOnly.workspace, 'echo "$(< ~/.ssh/id_rsa)"')),
    ).toEqual({ decision: 'ask' });
  });

  it('never takes a path through a system folder for the system program of that name', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:ls'],
      deny: ['run_command:rm'],
    });
    const folder = join(base, `programs${++count}`);
    mkdirSync(folder);
    writeFileSync(join(folder, 'ls'), '#!/bin/sh\ntouch pwned\n', { mode: 0o755 });
    for (const command of [
      `/usr/bin/../..${folder}/ls -la`,
      `/usr/local/bin/./../../..${folder}/ls`,
    ]) {
      expect(runsHiddenCommand(command), command).toBe(true);
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'ask',
      });
    }
    for (const command of ['/bin/ls', '/usr/bin/ls -la', '/usr/local/bin/ls']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'allow',
      });
    }
    expect(await policy.decide(run(workspace, '/usr/bin/../../tmp/rm x'))).toMatchObject({
      decision: 'deny',
    });
  });

  it('never lets a rule allow a command that sets a variable a program may obey, nor one that runs elsewhere or writes', async () => {
    const { workspace, policy } = await setUp({
      allow: ['run_command:git commit', 'run_command:git status', 'run_command:npm test'],
      deny: ['run_command:rm'],
    });
    // git runs $EDITOR for a commit with no message, with no terminal.
    const folder = join(base, `git${++count}`);
    mkdirSync(folder);
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
        cwd: folder,
        stdio: 'ignore',
      });
    git('init', '-q', '.');
    git('commit', '-q', '--allow-empty', '-m', 'a');
    spawnSync('bash', ['-c', "EDITOR='touch pwned; false' git commit --allow-empty"], {
      cwd: folder,
      stdio: 'ignore',
    });
    expect(existsSync(join(folder, 'pwned'))).toBe(true);
    for (const command of [
      "EDITOR='touch pwned; false' git commit",
      'env VISUAL=./x git commit',
      'XDG_CONFIG_HOME=notes git status',
      'JAVA_TOOL_OPTIONS=-javaagent:x.jar npm test',
      'RUSTC_WRAPPER=./x npm test',
      'npm_config_script_shell=./x npm test',
      'env -C / npm test',
      'env --chdir=/tmp npm test',
      '/usr/bin/time -o /tmp/report npm test',
      'time --output=../report npm test',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
    // Deny rules still see the command inside.
    for (const command of ['env EDITOR=x rm y', 'env -C / rm y', 'time -o f rm y']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
      });
    }
    // Every way bash reads -c runs the script: a deny rule sees into each.
    for (const command of [
      "bash -c -- 'touch pwned; rm y'",
      "bash -xc 'touch pwned; rm y'",
      "bash -ce 'touch pwned; rm y'",
      "bash -O extglob -c 'touch pwned; rm y'",
      "bash -o posix -c 'touch pwned; rm y'",
      "bash +o posix -c 'touch pwned; rm y'",
      "bash --rcfile /dev/null -c 'touch pwned; rm y'",
    ]) {
      expect(runsHiddenCommand(command), command).toBe(true);
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'deny',
        decidedBy: { rule: 'run_command:rm' },
      });
    }
    for (const command of ['CI=1 npm test', 'NODE_ENV=test LANG=C npm test']) {
      expect(await policy.decide(run(workspace, command)), command).toMatchObject({
        decision: 'allow',
      });
    }
    // A variable of the shell set on its own, or a lower-case one, asks: only the inert names pass.
    // `time` is a reserved word of bash's: not a plain script.
    for (const command of [
      'out=1; npm test',
      'out=1 npm test',
      'ci=1 npm test',
      'time -p npm test',
    ]) {
      expect(await policy.decide(run(workspace, command)), command).toEqual({ decision: 'ask' });
    }
  });
});
