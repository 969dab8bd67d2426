/**
 * Every error bugbench raises on purpose. Each kind has a stable `code` that a
 * user (and a test) can match on, and a message that says what to do next.
 */
/** Exit code of a command the engine (not the bug, not the user) stopped: sysexits' EX_TEMPFAIL, "try again later". */
export const ENGINE_EXIT_CODE = 75;

export class BugbenchError extends Error {
  /** The exit code of a command this error ends: 1 unless the kind says otherwise. */
  readonly exitCode: number = 1;

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
  override readonly exitCode = 2;

  constructor(message: string) {
    super('BB_USAGE', message);
  }
}

/** What bugbench asked the engine to do when it failed. */
export type EngineOperation = 'info' | 'create' | 'start' | 'exec' | 'files' | 'remove' | 'list' | 'volume';

const OPERATION_TEXT: Record<EngineOperation, string> = {
  info: 'say what it is',
  create: 'create a container',
  start: 'start a container',
  exec: 'run a command in a container',
  files: 'move files in or out of a container',
  remove: 'remove a container',
  list: 'list its containers',
  volume: 'create a volume',
};

/**
 * The container engine failed a request (a server error, a refused or cut
 * connection): nothing is known about the work it was doing, so it gets no
 * verdict. A command it ends exits with ENGINE_EXIT_CODE; what it was judging
 * can be judged again once the engine works.
 */
export class EngineError extends BugbenchError {
  override readonly exitCode = ENGINE_EXIT_CODE;
  /** A short line without the engine's own text, for places that show it elsewhere. */
  readonly summary: string;

  constructor(
    readonly operation: EngineOperation,
    /** The engine's own words. */
    readonly detail: string,
    code = 'BB_ENGINE_FAILED',
    message?: string,
  ) {
    const summary = `the engine could not ${OPERATION_TEXT[operation]}`;
    super(code, message ?? `${summary}: ${detail}`);
    this.summary = summary;
  }

  /** A failure to make a container at all, as opposed to one that ran and was lost. */
  get refusedContainer(): boolean {
    return this.operation === 'create' || this.operation === 'start';
  }
}

/** The work's engine stopped answering: the pool places it again elsewhere. */
export class EngineLostError extends EngineError {
  constructor(
    readonly engine: string,
    detail: string,
  ) {
    super('exec', detail, 'BB_ENGINE_LOST', `engine ${engine} stopped answering (${detail})`);
  }
}

/** No engine of the run can take its work: each refused containers the same way twice, or kept failing. */
export class EnginesBrokenError extends EngineError {
  constructor(readonly reasons: { engine: string; detail: string }[]) {
    const what = reasons.map((r) => `engine ${r.engine}: ${r.detail}`).join('; ');
    super(
      'create',
      what,
      'BB_ENGINES_BROKEN',
      `no engine is left for this work (${what}); this is the engine's setup, not a passing failure: \`bugbench doctor\` names what it lacks. ` +
        'The work keeps no verdict: check it, or resume the run, once the engine works',
    );
  }
}

/** The run was cancelled (Ctrl-C, SIGTERM, `bugbench cancel`) before this work could start. */
export class CancelledError extends BugbenchError {
  override readonly exitCode = 130;

  constructor(what: string) {
    super('BB_CANCELLED', `${what} was cancelled`);
  }
}

/** No container engine answered at the configured host. */
export class EngineUnreachableError extends BugbenchError {
  override readonly exitCode: number = ENGINE_EXIT_CODE;

  constructor(host: string, cause: string, todo = 'run `bugbench doctor --fix` to install and start one') {
    super('BB_ENGINE_UNREACHABLE', `no container engine answers at ${host} (${cause}); ${todo}`);
  }
}

/** Setting up the engine or an image needs something this machine does not allow. */
export class SetupError extends BugbenchError {
  constructor(message: string) {
    super('BB_SETUP', message);
  }
}

export class ImageNotFoundError extends BugbenchError {
  constructor(
    readonly image: string,
    todo = 'list images with `bugbench images` or build one with `bugbench images build <dir>`',
  ) {
    super('BB_IMAGE_NOT_FOUND', `image ${image} does not exist; ${todo}`);
  }

  /** The image someone asked to adopt is not on the engine: it is someone else's, so pulling it comes first (building is for a repository of one's own). */
  static toAdopt(image: string): ImageNotFoundError {
    return new ImageNotFoundError(image, `pull it first (\`docker pull ${image}\`, or \`podman pull\` on Podman) and adopt it again; to make an image of a repository of your own, use \`bugbench images build <dir>\``);
  }
}

/** An image bugbench can neither read as its own nor adopt as it is (no work tree, a wrong --root or --user). */
export class ImageAdoptionError extends BugbenchError {
  constructor(
    readonly image: string,
    detail: string,
  ) {
    super('BB_IMAGE_ADOPTION', `cannot adopt ${image}: ${detail}`);
  }
}

/** An image bugbench did not build and has not adopted yet. */
export class ImageNotAdoptedError extends BugbenchError {
  constructor(readonly image: string) {
    super('BB_IMAGE_NOT_ADOPTED', `image ${image} was not built by bugbench and is not adopted yet; run \`bugbench images add ${image}\` (or start a run on it, which adopts it)`);
  }
}

/** A folder given to build from is not there at all (told apart from one that is not a git repository). */
export class FolderNotFoundError extends BugbenchError {
  constructor(readonly dir: string) {
    super('BB_NO_SUCH_FOLDER', `${dir} does not exist; give the folder of a git repository`);
  }
}

/** The image a bug was checked on is gone: its tag names a rebuilt image and nothing kept the old one. */
export class BugImageGoneError extends BugbenchError {
  constructor(
    readonly bugId: string,
    message: string,
  ) {
    super('BB_BUG_IMAGE_GONE', message);
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

/** A candidate patch file given on the command line that is no diff bugbench can read: refused before any container starts. */
export class PatchFileError extends BugbenchError {
  override readonly exitCode = 2;

  constructor(
    readonly file: string,
    problem: string,
  ) {
    super('BB_PATCH_FILE', `${file} is not a patch: ${problem}; give the candidate fix as a unified git diff (e.g. \`git diff > fix.diff\` in the repository)`);
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
