import { describe, expect, it } from 'vitest';
import { analyseCommand } from '../../src/policy/command/analyse-command.js';

async function parts(command: string) {
  const analysis = await analyseCommand(command);
  return analysis.parts.map((part) => part.words.map((word) => word ?? '?').join(' '));
}

describe('analyseCommand', () => {
  it('splits compound commands into every part they run', async () => {
    expect(
      await parts('npm test && npm run lint || echo failed; git status | grep x & sleep 1\nls'),
    ).toEqual(['npm test', 'npm run lint', 'echo failed', 'git status', 'grep x', 'sleep 1', 'ls']);
    expect(await parts('echo $(rm -rf x) `id` <(cat y)')).toEqual([
      'echo ? ? ?',
      'rm -rf x',
      'id',
      'cat y',
    ]);
    expect(
      await parts(
        '(cd a && rm b) ; { rm c; }; if true; then rm d; fi; for f in *; do rm "$f"; done',
      ),
    ).toEqual(expect.arrayContaining(['cd a', 'rm b', 'rm c', 'true', 'rm d', 'rm ?']));
  });

  it('sees through wrappers', async () => {
    expect(await parts('env -i FOO=1 rm x')).toEqual(['rm x']);
    expect(await parts('FOO=1 /bin/rm x')).toEqual(['rm x']);
    expect(await parts('\\rm x')).toEqual(['rm x']);
    expect(await parts('sudo -u root nice -n 5 timeout -s KILL 10 rm x')).toEqual(['rm x']);
    expect(await parts('ls | xargs -0 -n 1 rm -f')).toEqual(['ls', 'rm -f']);
    expect(await parts('command rm x; exec rm y; nohup rm z')).toEqual(['rm x', 'rm y', 'rm z']);
    expect(await parts('bash -c "rm x && ls"')).toEqual(['rm x', 'ls']);
    expect(await parts('sh -e -c \'bash -c "rm deep"\'')).toEqual(['rm deep']);
    // `{}` is a name known only when it runs.
    expect(await parts('find . -name "*.tmp" -exec rm {} \\;')).toEqual([
      'find . -name *.tmp',
      'rm ?',
    ]);
  });

  it('sees through the other wrappers that run a command, so deny rules meet it', async () => {
    for (const [command, expected] of [
      ['setsid -f rm x', 'rm x'],
      ['ionice -c 3 -n 7 rm x', 'rm x'],
      ['chrt -r 10 rm x', 'rm x'],
      ['taskset -c 0 rm x', 'rm x'],
      ['flock /tmp/lock rm x', 'rm x'],
      ['flock -w 5 /tmp/lock rm x', 'rm x'],
      ["flock /tmp/lock -c 'rm x'", 'rm x'],
      // `-c` counts only right after the lock file, with one script: here `rm` runs.
      ['flock /tmp/lock rm -f v -- -c ls', 'rm -f v -- -c ls'],
      ["su -lc 'rm x'", 'rm x'],
      ["script -qc 'rm x' /dev/null", 'rm x'],
      ["runuser bob -c 'rm x'", 'rm x'],
      ["runuser -l bob -c 'rm x'", 'rm x'],
      ["bash -eo pipefail -c 'rm x'", 'rm x'],
      ['unbuffer rm x', 'rm x'],
      ['busybox rm x', 'rm x'],
      ['watch -n 1 rm x', 'rm x'],
      ["watch 'ls; rm x'", 'ls|rm x'],
      ['watch -x rm x', 'rm x'],
      ["script -q -c 'rm x' /dev/null", 'rm x'],
      ["su -c 'rm x' bob", 'rm x'],
    ] as const) {
      expect((await parts(command)).join('|'), command).toBe(expected);
    }
  });

  it('runs as another user every part of a script run as another user', async () => {
    const elevated = async (command: string) =>
      (await analyseCommand(command)).parts.map((part) => part.elevated === true);
    expect(await elevated("sudo bash -c 'npm test; ls'")).toEqual([true, true]);
    expect(await elevated("su -c 'npm test'")).toEqual([true]);
    expect(await elevated('sudo find . -exec npm test \\;')).toEqual([true, true]);
    expect(await elevated('pkexec ls; runuser -u bob -- ls')).toEqual([true, true]);
    expect(await elevated("runuser bob -c 'npm test'")).toEqual([true]);
    // The shell expands a substitution before sudo runs: that part is the person's own.
    expect(await elevated('sudo ls $(npm test)')).toEqual([true, false]);
    expect(await elevated("bash -c 'npm test'")).toEqual([false]);
  });

  it('says what cannot be checked', async () => {
    for (const command of [
      'eval "rm x"',
      'source ./x.sh',
      '$CMD x',
      'bash -c "$S"',
      'echo "unclosed',
      'env -S "rm x"',
      'parallel rm ::: x',
      "tmux new-session 'rm x'",
      'firejail rm x',
      'strace -o log ls',
      "script -c 'ls'",
      'su',
      'script',
      'find . -name "*.tmp" -delete',
      'find . -fprint /tmp/list',
      'sed -i s/a/b/ f',
      'sed -Ei s/a/b/ f',
      'sed --in-place=.bak s/a/b/ f',
      "trap 'rm x' EXIT",
      "mapfile -C 'rm x' -c 1 lines",
      "compgen -W '$(rm x)' a",
      'hash -p /tmp/x ls',
      'coproc rm x',
      'for PATH in /tmp/x; do npm test; done',
      'read PATH <<< /tmp/x; npm test',
      'printf -v PATH /tmp/x; npm test',
    ]) {
      expect((await analyseCommand(command)).problem, command).toBeDefined();
    }
    expect((await analyseCommand('npm test')).problem).toBeUndefined();
    for (const reads of ['find . -name x -print', 'sed -n -E s/a/b/p f', 'sed -e s/i/j/ f']) {
      expect((await analyseCommand(reads)).problem, reads).toBeUndefined();
    }
    // Not plain scripts, or builtins that change the shell: these ask now.
    for (const asks of [
      'sleep 1 & wait $!',
      'for f in a b; do ls "$f"; done',
      'read -r line < f',
      'hash',
      'mapfile -t lines < f',
    ]) {
      expect((await analyseCommand(asks)).problem, asks).toBeDefined();
    }
    expect((await analyseCommand('npm test > out.txt')).writes).toBe(true);
    expect((await analyseCommand('npm test >/dev/null 2>&1')).writes).toBe(false);
    // A # inside a quoted multi-line string is text, not a comment.
    expect(await parts('echo "a # b\nc"; rm x')).toEqual(['echo a # b\nc', 'rm x']);
  });

  it('hands the same command the same analysis again, frozen, without parsing it again', async () => {
    const command = 'npm test && echo "$(git rev-parse HEAD)" | grep x; sudo rm y';
    const first = await analyseCommand(command);
    const again = await analyseCommand(command);
    expect(again).toBe(first);
    expect(await parts(command)).toEqual([
      'npm test',
      'echo ?',
      'git rev-parse HEAD',
      'grep x',
      'rm y',
    ]);
    expect(first.parts[4]).toEqual({ words: ['rm', 'y'], elevated: true, via: ['sudo'] });
    // Shared by every caller: none can change what another is handed.
    expect(Object.isFrozen(first)).toBe(true);
    expect(first.parts.every((part) => Object.isFrozen(part) && Object.isFrozen(part.words))).toBe(
      true,
    );
    expect(Object.isFrozen(first.parts)).toBe(true);
  });

  it('keeps no analysis of a command too long to parse, nor one too heavy to keep', async () => {
    const kept = 'npm test && git status';
    const first = await analyseCommand(kept);
    // Too long to parse (always asked): nothing to keep, and it pushes nothing out.
    const tooLong = `echo ${'x'.repeat(150_000)}`;
    expect((await analyseCommand(tooLong)).problem).toBe('the command is too long to check');
    expect(await analyseCommand(tooLong)).not.toBe(await analyseCommand(tooLong));
    // Many tiny parts weigh far more than their characters: such an analysis is not kept either.
    const heavy = `${'a;'.repeat(20_000)}b`;
    expect((await analyseCommand(heavy)).parts).toHaveLength(20_001);
    expect(await analyseCommand(heavy)).not.toBe(await analyseCommand(heavy));
    expect(await analyseCommand(kept)).toBe(first);
  });
});
