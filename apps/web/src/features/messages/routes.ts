/** The route of the system-messages inbox (seed 001 §2; seed 000 §2 shows no path: ours). */
export const INBOX_ROUTE = '/messages';
/** The route of the operator's global messages (our path; the seeds show no operator screens). */
export const OPERATOR_MESSAGES_ROUTE = '/operator/global-messages';
