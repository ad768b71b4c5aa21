#!/usr/bin/env node
import { startAgentProgram } from 'dsh-agent/command-line';
import { terminalAgentProgram } from './terminal-agent/terminal-agent-program.js';

startAgentProgram(terminalAgentProgram());
