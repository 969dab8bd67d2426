/** Reads the JSON progress stream of an image pull or import to its end; an error message in it is thrown. */
import type Docker from 'dockerode';
import type { Progress } from '../../progress.js';

interface ProgressLine {
  status?: string;
  id?: string;
  error?: string;
  errorDetail?: { message?: string };
}

export function followProgress(docker: Docker, stream: NodeJS.ReadableStream, progress: Progress): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: string | undefined;
    docker.modem.followProgress(
      stream,
      (err: Error | null) => {
        if (err) reject(err);
        else if (failure) reject(new Error(failure));
        else resolve();
      },
      (line: ProgressLine) => {
        if (line.error || line.errorDetail?.message) failure = line.error ?? line.errorDetail?.message;
        else if (line.status && !line.id) progress(`  ${line.status}`);
      },
    );
  });
}
