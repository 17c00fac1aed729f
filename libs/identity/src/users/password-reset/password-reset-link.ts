/** The page a reset link opens. */
export const RESET_PASSWORD_PATH = '/password/reset';

/** The reset link of a token, on a base URL (SVC_PUBLIC_URL, or the trusted host of a request). */
export function resetLink(base: string, token: string): string {
  return `${base}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
}
