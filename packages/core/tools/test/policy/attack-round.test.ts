import { describe, expect, it } from 'vitest';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';
import { commandPolicy } from '../support/policy-checks.js';
import { testFileFolder } from '../support/test-folders.js';
import { runTraced } from '../support/traced-bash.js';

const base = testFileFolder('dsh-attack-round-');
async function setUp(options: { allow?: string[]; deny?: string[] }) {
  return (await commandPolicy(base, options)).decide;
}

/** The examples of the attack round: each ran `touch pwned` under a rule for `echo`, past a deny rule for `touch`. */
const HIDDEN_TOUCH = [
  "echo $'\\\\'; touch pwned #'",
  'echo \\ #$(touch pwned)',
  'echo hi\r#$(touch pwned)',
  'echo hi \\\r\ntouch pwned',
];

describe('the attack round, as regression tests', () => {
  it('asks where bash runs a command the parser does not show, and never offers "always"', async () => {
    const decide = await setUp({ allow: ['run_command:echo'], deny: ['run_command:touch'] });
    for (const command of HIDDEN_TOUCH) {
      // The tracer sees what bash really does with each.
      expect(runTraced(command).ran, command).toContainEqual(['touch', 'pwned']);
      const verdict = await decide(command);
      expect(verdict.decision, command).not.toBe('allow');
      expect(verdict, command).not.toHaveProperty('allowAlways');
    }
  });

  it('never allows xargs running a shell on its input, start-up files, or another shell by rule', async () => {
    const decide = await setUp({
      allow: ['run_command:xargs', 'run_command:sh', 'run_command:bash', 'run_command:echo'],
    });
    for (const command of [
      'echo x | xargs -I{} sh -c {}',
      "bash --rcfile x.sh -i -c 'echo hi'",
      "bash --init-file x.sh -c 'echo hi'",
      "bash -l -c 'echo hi'",
      "bash --login -c 'echo hi'",
      "sh -c 'echo hi'",
      "dash -c 'echo hi'",
      "zsh -c 'echo hi'",
      "ksh -c 'echo hi'",
      'echo ls | bash',
    ]) {
      expect(await decide(command), command).toEqual({ decision: 'ask' });
    }
    // A bash script of plain words is read again, and allowed by the rules of its parts.
    expect(await decide("bash -c 'echo hi'")).toMatchObject({ decision: 'allow' });
  });

  it("never lets a rule's prefix allow the program's own options that run code or write elsewhere", async () => {
    const decide = await setUp({
      allow: [
        'run_command:npm test',
        'run_command:pnpm test',
        'run_command:git grep',
        'run_command:git fetch',
        'run_command:git log',
        'run_command:make build',
        'run_command:sed',
        'run_command:awk',
        'run_command:find',
        'run_command:tar',
        'run_command:rsync',
        'run_command:env',
        'run_command:echo',
        'run_command:node build.js',
      ],
    });
    for (const command of [
      'npm test --node-options=--import=data:text/javascript,process.exit(3)',
      'npm test --script-shell=./x.sh',
      'npm test --node-opt=--require=./x.js',
      'pnpm_config_script_shell=./x.sh pnpm test',
      'PNPM_CONFIG_SCRIPT_SHELL=./x.sh pnpm test',
      'npm_config_node_options=x npm test',
      'git grep --open-files-in-pager=./x.sh foo',
      'git grep -O./x.sh foo',
      'git fetch --upload-pack=./x.sh origin',
      'git fetch --upload-p=./x.sh origin',
      'git log --output=../x',
      'make build --eval=$(shell touch p)',
      "make build --eval='x:;touch p'",
      'make build SHELL=./x.sh',
      "sed 'e touch p' f",
      "sed 's/a/b/e' f",
      "sed 's/a/b/w out' f",
      "sed '1w out' f",
      'sed -i s/a/b/ f',
      'awk \'BEGIN{system("touch p")}\'',
      'awk \'{print > "out"}\' f',
      'find . -delete',
      'find . -fprint out',
      'tar -cf x.tar --to-command=./x.sh .',
      'tar -I ./x.sh -cf x.tar .',
      'tar -C / -xf x.tar',
      "rsync -e './x.sh' a b:c",
      'rsync --rsync-path=./x.sh a b:c',
      'env -S "echo hi"',
      'env -C / echo hi',
      'node -e 1',
      'node --import=data:x build.js',
    ]) {
      const verdict = await decide(command);
      expect(verdict.decision, command).not.toBe('allow');
      expect(verdict, command).not.toHaveProperty('allowAlways');
    }
    for (const command of [
      'npm test',
      'npm test -- --watch --node-options=x',
      'git log --oneline -n 5',
      "sed -n '1,5p' f",
      "sed -E 's/a|b/c/g; /x/d' f",
      "awk '{print $1}' f",
      'find . -name x -print',
      'tar -tf x.tar',
      'node build.js --eval',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'allow' });
    }
  });

  it('denies git push however git is told to run it', async () => {
    const decide = await setUp({ allow: ['run_command:git'], deny: ['run_command:git push'] });
    for (const command of [
      'git -c alias.x=push x',
      'git -calias.x=push x',
      'git -c ALIAS.x=push x',
      'git -C . -c alias.x=push x origin',
      'git --config-env=alias.x=VAR x',
      'git push',
      'git -C . push',
    ]) {
      expect(await decide(command), command).toMatchObject({ decision: 'deny' });
    }
  });

  it('asks for builtins that evaluate, alias, set variables without = or change how the shell runs', async () => {
    const decide = await setUp({
      allow: [
        'run_command:declare',
        'run_command:alias',
        'run_command:printf',
        'run_command:shopt',
      ].concat(['run_command:cd', 'run_command:ls', 'run_command:echo']),
    });
    for (const command of [
      "declare -a a='($(touch p))'",
      "alias ls='touch p'",
      'printf -vPATH /tmp',
      'printf -v PATH /tmp',
      '{PATH}>&1 echo hi',
      'shopt -s cdable_vars; cd HOME',
      'shopt -s expand_aliases',
    ]) {
      const verdict = await decide(command);
      expect(verdict, command).toEqual({ decision: 'ask' });
    }
  });

  it('offers "always" no wider than what was approved, and never a variable or a word the line does not begin with', async () => {
    const decide = await setUp({});
    for (const command of [
      'env X.Y=1 echo hi',
      'env FOO=1 echo hi',
      'timeout 5 echo hi',
      'nice echo hi',
    ]) {
      expect(await decide(command), command).toEqual({ decision: 'ask' });
    }
    for (const command of ["echo '%s'", 'echo {}', "printf 'a=b'"]) {
      const prefix = (await decide(command)) as { allowAlways?: { rule: string } };
      expect(prefix.allowAlways?.rule, command).toMatch(/^run_command:(?:echo|printf)$/);
    }
  });

  it('keeps the analysis of a hostile command bounded, and later decisions whole', async () => {
    const decide = await setUp({ allow: ['run_command:echo'], deny: ['run_command:rm'] });
    const hostile = [
      `echo ${'$('.repeat(700)}`,
      `echo ${'$('.repeat(20_000)}`,
      Array.from({ length: 2_500 }, () => 'echo a').join(' && '),
      `test '${'['.repeat(90_000)}'`,
      `echo "${'`'.repeat(30_000)}`,
      `echo ${'${'.repeat(30_000)}`,
      `${'if true; then '.repeat(6_000)}echo`,
      `echo ${'\'a\'"b"\\c'.repeat(9_000)}`,
    ];
    for (const command of hostile) {
      const verdict = await decide(command);
      expect(['ask', 'allow']).toContain(verdict.decision);
    }
    expect(await decide(hostile[2] as string)).toMatchObject({ decision: 'allow' });
    // Later commands, in this policy or another, are decided as before.
    expect(await decide('echo fine')).toMatchObject({ decision: 'allow' });
    expect(await decide('echo $(rm x)')).toMatchObject({ decision: 'deny' });
    const other = await setUp({ allow: ['run_command:echo'] });
    expect(await other('echo fine')).toMatchObject({ decision: 'allow' });
  });

  it('says why a command was not read in time, and reads it again the next time', async () => {
    const text = `echo ${'$('.repeat(20_000)}`;
    const analysis = await analyseCommand(text);
    expect(analysis.problem).toBeDefined();
  });
});
