/** Agent keys act for their whole account (the agent surface has no finer scope model yet). */
export const AGENT_KEY_SCOPES = ['admin'];
