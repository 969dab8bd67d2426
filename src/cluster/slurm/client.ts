/**
 * Requests to slurmrestd: over TCP with JWT headers (a given token, or one
 * minted from the key file and renewed before it expires), or over the local
 * unix socket with no headers at all. Failures become typed errors that say
 * what to do: unreachable, authentication, or the engine's own refusal.
 */
import { readFileSync } from 'node:fs';
import { TrainingAuthError, TrainingEngineError, TrainingEngineUnreachableError, TrainingNotConfiguredError } from '../../errors.js';
import { describeEndpoint, requestJson, TransportError, type Endpoint, type HttpRequest } from '../http-json.js';
import type { SlurmSettings } from './settings.js';
import type { SlurmApi, SlurmApiError } from './api.js';
import { slurmApi, SLURM_API_VERSIONS } from './versions.js';
import { mintToken, tokenProblem } from './jwt.js';

const TOKEN_LIFESPAN_S = 3600;

export interface SlurmAnswer {
  status: number;
  body: unknown;
}

/** A failed request the engine answered: kind says whether the job was simply not found. */
export class SlurmRequestError extends TrainingEngineError {
  constructor(
    message: string,
    httpStatus: number,
    readonly errors: SlurmApiError[],
    readonly jobNotFound: boolean,
  ) {
    super(message, httpStatus);
  }
}

export class SlurmClient {
  readonly api: SlurmApi;
  readonly endpoint: Endpoint;
  readonly user: string | undefined;
  private token: { value: string; renewAt: number } | undefined;

  constructor(
    private readonly settings: SlurmSettings,
    private readonly now: () => number = () => Math.floor(Date.now() / 1000),
  ) {
    const api = slurmApi(settings.apiVersion);
    if (!api) {
      throw new TrainingNotConfiguredError(
        `slurmrestd API version ${settings.apiVersion} is not supported; use one of ${SLURM_API_VERSIONS.join(', ')}`,
      );
    }
    this.api = api;
    if (settings.url) {
      if (!/^https?:\/\//.test(settings.url)) {
        throw new TrainingNotConfiguredError(`slurmrestd URL must start with http:// or https://, got ${settings.url} (from ${settings.source})`);
      }
      if (!settings.user) {
        throw new TrainingNotConfiguredError(`slurmrestd at ${settings.url} needs a user name: set SLURM_USER or training.slurm.user`);
      }
      if (!settings.token && !settings.jwtKeyFile) {
        throw new TrainingNotConfiguredError(
          `slurmrestd at ${settings.url} needs a token: set SLURM_JWT (e.g. from \`scontrol token\`) or SLURM_JWT_KEY (the cluster's jwt_hs256.key)`,
        );
      }
      this.endpoint = { url: settings.url };
    } else if (settings.socket) {
      this.endpoint = { socketPath: settings.socket };
    } else {
      throw new TrainingNotConfiguredError(
        'no slurmrestd is configured: set SLURMRESTD_URL (with SLURM_USER and SLURM_JWT or SLURM_JWT_KEY) or SLURMRESTD_SOCKET, or start the local cluster with scripts/slurm-up',
      );
    }
    this.user = settings.user;
  }

  get address(): string {
    return describeEndpoint(this.endpoint);
  }

  private authHeaders(): Record<string, string> {
    if (!('url' in this.endpoint)) return {};
    const user = this.settings.user!;
    const now = this.now();
    if (this.settings.token) {
      const problem = tokenProblem(this.settings.token, user, now);
      if (problem) throw new TrainingAuthError(`the Slurm token from ${this.settings.source} cannot be used: ${problem}; get a new one with \`scontrol token username=${user}\``);
      return { 'X-SLURM-USER-NAME': user, 'X-SLURM-USER-TOKEN': this.settings.token };
    }
    if (!this.token || now >= this.token.renewAt) {
      let key: Buffer;
      try {
        key = readFileSync(this.settings.jwtKeyFile!);
      } catch (error) {
        throw new TrainingAuthError(
          `cannot read the Slurm JWT key ${this.settings.jwtKeyFile} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); set SLURM_JWT_KEY to the cluster's jwt_hs256.key, or give a token in SLURM_JWT`,
        );
      }
      this.token = { value: mintToken(key, user, now, TOKEN_LIFESPAN_S), renewAt: now + TOKEN_LIFESPAN_S - 300 };
    }
    return { 'X-SLURM-USER-NAME': user, 'X-SLURM-USER-TOKEN': this.token.value };
  }

  private authAdvice(): string {
    if (!('url' in this.endpoint)) return 'the unix socket only accepts its own daemon\'s user and root';
    const how = this.settings.token ? 'the token in SLURM_JWT' : `the key ${this.settings.jwtKeyFile}`;
    return `check that ${how} is the cluster's and that user "${this.settings.user}" is right (a new token: \`scontrol token username=${this.settings.user}\`)`;
  }

  /** Sends one request; 2xx answers come back, everything else throws a typed error. */
  async request(method: HttpRequest['method'], path: string, body?: unknown, timeoutMs?: number): Promise<SlurmAnswer> {
    const headers = this.authHeaders();
    let response;
    try {
      response = await requestJson(this.endpoint, { method, path, body, headers, timeoutMs });
    } catch (error) {
      if (error instanceof TransportError) {
        throw new TrainingEngineUnreachableError(
          'slurm',
          this.address,
          error.reason,
          'start it (locally: scripts/slurm-up) or point SLURMRESTD_URL / SLURMRESTD_SOCKET at a running slurmrestd',
        );
      }
      throw error;
    }
    if (response.status >= 200 && response.status < 300) return { status: response.status, body: response.json };
    const errors = this.api.parseErrors(response.json);
    const said = errors.map((e) => e.message).join('; ') || response.text.trim().slice(0, 300) || `HTTP ${response.status}`;
    const kind = this.api.classifyFailure(response.status, errors);
    if (kind === 'auth') {
      const what = response.status === 500
        ? `answered HTTP 500 "${said}", which is how Slurm 22.05 reports a token slurmctld refused (expired, signed with another key, or for another user) — or a slurmctld that does not answer`
        : `refused the credentials (HTTP ${response.status} "${said}")`;
      throw new TrainingAuthError(`slurmrestd at ${this.address} ${what}; ${this.authAdvice()}`);
    }
    throw new SlurmRequestError(`slurmrestd at ${this.address}: ${method} ${path.split('?')[0]} failed: ${said} (HTTP ${response.status})`, response.status, errors, kind === 'job-not-found');
  }
}
