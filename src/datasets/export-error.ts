import { BugbenchError } from '../errors.js';

/** An export that cannot be written at all (a bug that cannot be exported is skipped instead: ExportSkip). */
export class ExportError extends BugbenchError {
  constructor(message: string) {
    super('BB_EXPORT', message);
  }
}
