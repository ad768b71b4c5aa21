import { API_KEY_VARIABLES } from 'dsh-agent';
import { describe, expect, it } from 'vitest';
import { withheldVariables } from '../../src/index.js';
import { makeUp, runner, sandboxTestFolder } from './sandbox-support.js';

const base = sandboxTestFolder('dsh-env-');

const ENV = {
  PATH: process.env.PATH,
  DEEPSEEK_API_KEY: 'sk-deepseek',
  DSH_API_KEY: 'sk-dsh',
  NPM_TOKEN: 'npm-secret',
  KEPT: 'kept',
};

describe("the command's environment", () => {
  it('never holds the agent’s own keys; holds the rest of the person’s', async () => {
    expect(API_KEY_VARIABLES).toEqual(['DEEPSEEK_API_KEY', 'DSH_API_KEY']);
    const made = await makeUp(base, 'a');
    const { run } = runner(
      made,
      { available: false, problem: 'missing', reason: 'r', fix: 'f' },
      {
        env: ENV,
      },
    );
    const result = await run('echo "[$DEEPSEEK_API_KEY][$DSH_API_KEY][$NPM_TOKEN][$KEPT]"; env');
    expect(result.output).toContain('[][][npm-secret][kept]');
    expect(result.output).not.toContain('sk-');
  });

  it('keeps back what the person names (--hide-env) and passes what they pass (--pass-env)', async () => {
    const made = await makeUp(base, 'b');
    const withheld = withheldVariables({ hide: ['NPM_TOKEN'], pass: ['DSH_API_KEY'] });
    const { run } = runner(
      made,
      { available: false, problem: 'missing', reason: 'r', fix: 'f' },
      {
        env: ENV,
        withheld,
      },
    );
    const result = await run('echo "[$DEEPSEEK_API_KEY][$DSH_API_KEY][$NPM_TOKEN][$KEPT]"');
    expect(result.output).toContain('[][sk-dsh][][kept]');
  });
});
