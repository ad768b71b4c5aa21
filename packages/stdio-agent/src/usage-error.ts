import { HarnessError } from 'dsh-user-interaction';

/** A command line that cannot be run as written (exit status 2). */
export class UsageError extends HarnessError {
  constructor(message: string) {
    super('USAGE_INVALID', message);
    this.name = 'UsageError';
  }
}
