/**
 * Every error bugbench raises on purpose. Each kind has a stable `code` that a
 * user (and a test) can match on, and a message that says what to do next.
 */
export class BugbenchError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** The command line was wrong: unknown command, missing or malformed flag. */
export class UsageError extends BugbenchError {
  constructor(message: string) {
    super('BB_USAGE', message);
  }
}

/** No Docker engine answered at the configured host. */
export class EngineUnreachableError extends BugbenchError {
  constructor(host: string, cause: string) {
    super(
      'BB_ENGINE_UNREACHABLE',
      `no Docker engine answers at ${host} (${cause}); run \`bugbench doctor --fix\` to install and start one`,
    );
  }
}

/** Setting up the engine or an image needs something this machine does not allow. */
export class SetupError extends BugbenchError {
  constructor(message: string) {
    super('BB_SETUP', message);
  }
}

export class ImageNotFoundError extends BugbenchError {
  constructor(readonly image: string) {
    super(
      'BB_IMAGE_NOT_FOUND',
      `image ${image} does not exist; list images with \`bugbench images\` or build one with \`bugbench images build <dir>\``,
    );
  }
}

export class NotAGitRepoError extends BugbenchError {
  constructor(readonly dir: string) {
    super('BB_NOT_A_GIT_REPO', `${dir} is not a git repository with at least one commit`);
  }
}

/** A toolchain base image (Go, Node, Rust, Java) could not be built. */
export class ToolchainBaseError extends BugbenchError {
  constructor(
    readonly tag: string,
    detail: string,
    holds: string,
  ) {
    super(
      'BB_TOOLCHAIN_BASE',
      `cannot build the base image ${tag}: ${detail}; fix that and run \`bugbench doctor --fix\`, or pass \`--from IMAGE\` naming an image that holds ${holds}`,
    );
  }
}

/** The step that installs a repository's dependencies while its image is built failed. */
export class DependencyStepError extends BugbenchError {
  constructor(
    readonly step: string,
    readonly image: string,
    exitCode: number,
    tail: string,
  ) {
    super(
      'BB_DEPENDENCY_STEP',
      `the dependency step \`${step}\` failed on ${image} (exit ${exitCode})${tail ? `: ${tail}` : ''}; pass \`--setup CMD\` with a step that works, \`--setup ''\` to skip it, or \`--from IMAGE\` naming an image that holds what the repository needs`,
    );
  }
}

/** `git apply` refused a diff inside a container. */
export class PatchRejectedError extends BugbenchError {
  constructor(
    readonly files: string[],
    readonly detail: string,
  ) {
    const where = files.length > 0 ? files.join(', ') : 'unknown file';
    super('BB_PATCH_REJECTED', `patch does not apply to ${where}: ${detail}`);
  }
}

/** A command the sandbox itself needed (not the user's) failed. */
export class SandboxError extends BugbenchError {
  constructor(message: string) {
    super('BB_SANDBOX', message);
  }
}

export class ArtifactError extends BugbenchError {
  constructor(
    readonly file: string,
    problem: string,
  ) {
    super('BB_ARTIFACT', `${file}: ${problem}`);
  }
}

/** A test run the checks needed gave no trustworthy map: it timed out, its parser failed, or its parser contradicts the log. */
export class UnusableRunError extends BugbenchError {
  constructor(
    readonly run: string,
    reason: string,
  ) {
    super('BB_UNUSABLE_RUN', reason);
  }
}

/** A file in a container that bugbench will not read: not a regular file, out of bounds, or over the read's limit. */
export class ReadRefusedError extends BugbenchError {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {
    super('BB_READ_REFUSED', `${path} ${problem}`);
  }
}

export class NotFoundError extends BugbenchError {
  constructor(what: string) {
    super('BB_NOT_FOUND', what);
  }
}

/** A training job spec (or its command template) is not one an engine could run. */
export class JobSpecError extends BugbenchError {
  constructor(message: string) {
    super('BB_JOB_SPEC', message);
  }
}

/** The chosen training engine has no address (or key, or token) configured. */
export class TrainingNotConfiguredError extends BugbenchError {
  constructor(message: string) {
    super('BB_TRAINING_NOT_CONFIGURED', message);
  }
}

/** Nothing answers at the training engine's address; nothing was submitted. */
export class TrainingEngineUnreachableError extends BugbenchError {
  constructor(
    readonly engine: string,
    readonly address: string,
    cause: string,
    hint: string,
  ) {
    super('BB_TRAINING_UNREACHABLE', `the ${engine} engine does not answer at ${address} (${cause}); ${hint}`);
  }
}

/** The training engine did not accept our credentials. */
export class TrainingAuthError extends BugbenchError {
  constructor(message: string) {
    super('BB_TRAINING_AUTH', message);
  }
}

/** The training engine answered but refused or failed the request. */
export class TrainingEngineError extends BugbenchError {
  constructor(
    message: string,
    readonly httpStatus?: number,
  ) {
    super('BB_TRAINING_ENGINE', message);
  }
}

/** A job's output cannot be read from here. */
export class JobLogsUnavailableError extends BugbenchError {
  constructor(message: string) {
    super('BB_JOB_LOGS', message);
  }
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
