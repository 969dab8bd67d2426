import { BugbenchError } from '../errors.js';

/** An export that cannot be written at all (a bug that cannot be exported is skipped instead: ExportSkip). */
export class ExportError extends BugbenchError {
  constructor(message: string) {
    super('BB_EXPORT', message);
  }
}

/** An export file verify-export cannot read: not there, not JSON lines, or a line that is no instance bugbench wrote. */
export class ExportFileError extends BugbenchError {
  override readonly exitCode = 2;

  constructor(message: string) {
    super('BB_EXPORT_FILE', message);
  }
}
