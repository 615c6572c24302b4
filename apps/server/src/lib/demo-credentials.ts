/**
 * The demo installation's published credentials (README "Two commands"; DESIGN §9): the demo
 * club's manager and the demo operator, both with DEMO_PASSWORD. They are for the demo club only
 * (docs/security.md "Demo credentials"): the demo operator signs in only while the demo club is the
 * installation's only club. A production start creates neither account.
 */
export const DEMO_EXTERNAL_CLUB_ID = 1001;
export const DEMO_USERNAME = 'admin';
/** Only for the demo club (DESIGN §9); a production start creates no account. */
export const DEMO_PASSWORD = 'demo1234';
/** The demo's service operator (user level SuperUser, no club; signs in with any club id), same password. */
export const DEMO_OPERATOR_USERNAME = 'operator';
