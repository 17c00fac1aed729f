import { z } from 'zod';
import { CSRF_FIELD } from '#http';

/** The sign-in form as the browser posts it (urlencoded); lengths bound the work per request. */
export const signInForm = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(1024),
  next: z.string().max(2000).optional(),
  /** Checked by CsrfGuard before this (a header may carry it instead). */
  [CSRF_FIELD]: z.string().max(500).optional(),
});

export const signInPageQuery = z.object({
  next: z.string().max(2000).optional(),
  signed_out: z.string().max(10).optional(),
  /** After a password reset: sign in with the new one. */
  reset: z.string().max(10).optional(),
});
