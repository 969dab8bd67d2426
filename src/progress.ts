/**
 * Long work (installing the engine, building images) reports what it is doing
 * through this callback; the CLI prints it to stderr, the TUI shows it.
 */
export type Progress = (message: string) => void;
