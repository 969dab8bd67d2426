/** Setup file of the `podman` project: every engine call of its tests (and of the CLIs they start) goes to the rootless Podman of the test set-up. */
import { inject } from 'vitest';

process.env.DOCKER_HOST = inject('podmanHost');
