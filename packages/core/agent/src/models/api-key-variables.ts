// One list for the loop, which reads the keys, and the tools, which keep them from commands.
export { API_KEY_VARIABLES, type ApiKeyVariable } from 'dsh-user-interaction/host';
