import { z } from 'zod';
import { REPOSITORY_NAME_PATTERN, REPOSITORY_PROVIDERS } from '../../repository.events.js';

export const connectRepositoryBody = z
  .object({
    name: z
      .string()
      .trim()
      .regex(REPOSITORY_NAME_PATTERN, 'must be in owner/repo form')
      .describe(
        '`owner/repo`. Unique per account among connected repositories, compared case-insensitively (409 `REPOSITORY_EXISTS`).',
      ),
    url: z
      .string()
      .trim()
      .max(2048)
      .refine((v) => /^https?:\/\/[^\s]+$/i.test(v), { message: 'must be an http or https URL' })
      .optional()
      .describe(
        "Web address of the repository. Default: the provider's (`https://github.com/{name}`, ...); none for `other`.",
      ),
    provider: z.enum(REPOSITORY_PROVIDERS).default('github').describe('Where it is hosted. Default `github`.'),
  })
  .meta({ id: 'ConnectRepositoryRequest' });
