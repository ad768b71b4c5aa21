import type { Script } from './script.js';

/**
 * The files of the scratch folder the demo works in (its workspace), by name: the demo reads
 * PLAN.md, proposes to write the plan into it, and runs a command on it. Never the person's own
 * folder.
 */
export const DEMO_WORKSPACE_FILES: Readonly<Record<string, string>> = Object.freeze({
  'PLAN.md': '# The plan\n\nNothing is decided yet.\n',
});

/** The plan the demo sums up and then writes into PLAN.md, from the person's answers. */
const PLAN =
  '- Project: {{answer:name|(no name given)}}\n- Language: {{answer:language|(not chosen)}}\n- Database: {{answer:stack.database|(not chosen)}}\n- Features: {{answer:stack.features|(none chosen)}}\n- License: {{answer:stack.license|(not chosen)}}\n- Hosting: {{answer:hosting|(not chosen)}}\n';

/**
 * The built-in demo: one turn, started by the person's first prompt, that asks (1) a choice
 * with a recommended option, (2) a free-form question, (3) three questions at once: a choice
 * that also takes a typed answer, several choices, and a choice with a recommended option,
 * (4) a choice on its own that takes its options only, and (5) sums up what the person
 * answered. The questions asked alone are what an editor without forms can still show.
 */
export const DEMO_SCRIPT: Script = {
  description:
    'The built-in demo: a choice, a name to type, three questions at once, a last choice, then a summary of the answers; at the next message, a file read, an edit and a command, each approved first.',
  steps: [
    {
      text: "Hi! I am the dsh demo agent. I run offline from a script, to show how an agent can stop in the middle of its work and ask you questions. Let's plan a small web service together.",
      toolCalls: [
        {
          id: 'language',
          name: 'ask_user_question',
          arguments: {
            question: 'Which language should the new service be written in?',
            header: 'Language',
            allow_custom: false,
            options: [
              {
                label: 'TypeScript',
                description: 'Node.js with strict types: what the rest of the team uses.',
                recommended: true,
              },
              { label: 'Go', description: 'One static binary that starts fast.' },
              { label: 'Python', description: 'Quick to write, with a large ecosystem.' },
              { label: 'Rust', description: 'Fast and safe, but slower to write.' },
            ],
          },
        },
      ],
    },
    {
      text: 'Noted: {{answer:language|no language for now}}. The next question has no options: type the answer.',
      toolCalls: [
        {
          id: 'name',
          name: 'ask_user_question',
          arguments: { question: 'What should the project be called?', header: 'Project name' },
        },
      ],
    },
    {
      text: 'Next, three questions at once: their answers go back together.',
      toolCalls: [
        {
          id: 'stack',
          name: 'ask_user_question',
          arguments: {
            header: 'The stack',
            questions: [
              {
                id: 'database',
                header: 'Database',
                question: 'Which database should {{answer:name|the service}} use?',
                options: [
                  { label: 'PostgreSQL', description: 'Relational and dependable.' },
                  { label: 'SQLite', description: 'A single file, with no server to run.' },
                  { label: 'MongoDB', description: 'Documents instead of tables.' },
                ],
              },
              {
                id: 'features',
                header: 'Features',
                question: 'Which features should it start with? Choose one or more.',
                multi_select: true,
                options: [
                  { label: 'Authentication', description: 'Sign-in and sessions.' },
                  { label: 'Automated tests', description: 'A test suite run on every change.' },
                  { label: 'API docs', description: 'Reference pages built from the code.' },
                  { label: 'Metrics', description: 'Counters and timings for a dashboard.' },
                ],
              },
              {
                id: 'license',
                header: 'License',
                question: 'Under which license should the code be published?',
                allow_custom: false,
                options: [
                  { label: 'MIT', description: 'Short and permissive.', recommended: true },
                  { label: 'Apache-2.0', description: 'Permissive, with a patent grant.' },
                  { label: 'Not published', value: 'none (not published)' },
                ],
              },
            ],
          },
        },
      ],
    },
    {
      text: 'Last question: this one takes one of its options only.',
      toolCalls: [
        {
          id: 'hosting',
          name: 'ask_user_question',
          arguments: {
            question: 'Where will {{answer:name|the service}} run?',
            header: 'Hosting',
            allow_custom: false,
            options: [
              {
                label: 'Containers',
                value: 'containers',
                description: 'A Docker image on any container platform.',
              },
              {
                label: 'Serverless',
                value: 'serverless functions',
                description: 'No servers to manage; billed per request.',
              },
              { label: 'A virtual machine', value: 'a virtual machine' },
            ],
          },
        },
      ],
    },
    {
      text: `Here is the plan:\n\n${PLAN}\nThat is the plan. Send another message and I will write it into PLAN.md, in the scratch folder this demo works in: you approve the edit and the command first.`,
    },
    {
      text: 'I work in a scratch folder made for this demo, never in your files. First I read PLAN.md: reading inside the workspace needs no approval.',
      toolCalls: [{ id: 'read-plan', name: 'read_file', arguments: { path: 'PLAN.md' } }],
    },
    {
      text: 'Here is the change I propose. Nothing is written until you allow it.',
      toolCalls: [
        {
          id: 'write-plan',
          // The whole file, so that the second part works every time it runs (an edit of
          // "Nothing is decided yet." finds nothing once it was written).
          name: 'write_file',
          arguments: {
            path: 'PLAN.md',
            content: `# The plan\n\n${PLAN}`,
          },
        },
      ],
    },
    {
      text: 'Now a command to check the file: commands ask first too.',
      toolCalls: [
        { id: 'check-plan', name: 'run_command', arguments: { command: 'wc -l PLAN.md' } },
      ],
    },
    {
      text: 'That is the whole demo: questions, an edit and a command, each approved by you first. To talk to a real model, set DEEPSEEK_API_KEY or pass --base-url.',
    },
  ],
  end: 'The demo script is over: start again to replay it, or set DEEPSEEK_API_KEY (or pass --base-url) to talk to a real model.',
};
