/**
 * Error codes of the API (DESIGN §5): the user-facing catalogue of seed 001 §8
 * plus the generic HTTP cases. The server answers `{code, message, details?}`;
 * the console shows the translated text for `code` (i18n key `errors.<code>`).
 */
export const ERROR_STATUS = {
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  AUTHENTICATION_ERROR: 401,
  LOGIN_FAILED: 401,
  INCORRECT_CREDENTIALS: 401,
  INCORRECT_CREDENTIALS_OR_CLUB: 401,
  CSRF_INVALID: 403,
  NOT_AUTHORIZED: 403,
  NOT_FOUND: 404,
  TERMINAL_NOT_FOUND: 404,
  CARD_NOT_FOUND: 404,
  NO_ACTION_FOUND: 404,
  USER_NAME_EXISTS: 409,
  PASSWORD_TAKEN: 409,
  CARD_TAKEN: 409,
  CONFLICT: 409,
  FILE_TOO_LARGE: 413,
  UNSUPPORTED_FILE_TYPE: 415,
  NOT_ENOUGH_LICENSES: 422,
  WRONG_PASSWORD: 422,
  NO_TERMINAL_CONNECTION: 503,
  TOO_MANY_REQUESTS: 429,
  PAYMENT_ERROR: 402,
  GENERAL_ERROR: 500,
} as const;
export type ErrorCode = keyof typeof ERROR_STATUS;

/** Body of every error response. */
export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  details?: unknown;
}

/** Field errors of a VALIDATION_ERROR: path (dot-joined) to i18n key or message. */
export interface FieldError {
  path: string;
  message: string;
}
