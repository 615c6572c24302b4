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
  /** An uploaded sheet over a reading limit (columns, cells, unzipped size or ratio, time, memory); details {reason, limit}. */
  SHEET_TOO_LARGE: 413,
  UNSUPPORTED_FILE_TYPE: 415,
  NOT_ENOUGH_LICENSES: 422,
  /** Seed 001 §5: a fingerprint cannot be deleted for a technician-type client. */
  TECHNICIAN_BIOMETRIC_PROTECTED: 422,
  /** Seed 001 §5 "A file must be chosen to import clients". */
  FILE_REQUIRED: 400,
  /** Seed 001 §8 "No data to export". */
  NO_DATA_TO_EXPORT: 422,
  /** Seed 001 §8 "You cannot create more than N products"; details {limit}. */
  PRODUCT_LIMIT: 422,
  /** Seed 001 §3 "Some settings can be changed only by contacting the manager"; details {fields}. */
  CONTACT_MANAGER: 403,
  /** A bulk action this server does not perform (addBeats: money changes go through the money ledger). */
  BULK_ACTION_NOT_SUPPORTED: 422,
  /** A CSV upload whose quoting is broken (a quote never closed); details {reason, row, column}; nothing is read. */
  CSV_MALFORMED: 422,
  /** An import file with row errors is not written (all or nothing); details are the row errors. */
  IMPORT_HAS_ERRORS: 422,
  /** A user cannot take their own admin flag away, nor disable themself. */
  CANNOT_CHANGE_OWN_ADMIN: 422,
  /** PATCH/DELETE /Schedule/{id} on a group's own row: it is saved with its group. */
  SCHEDULE_OF_GROUP: 409,
  WRONG_PASSWORD: 422,
  NO_TERMINAL_CONNECTION: 503,
  /** The database cannot be reached or ended the connection (docs/operations.md "Database outage"); `Retry-After` says when to try again. */
  DATABASE_UNAVAILABLE: 503,
  TOO_MANY_REQUESTS: 429,
  /** Repeated failed sign-ins under one user name: a growing delay (docs/security.md "Sign-in"); details {retryAfterSeconds}. */
  LOGIN_LOCKED: 429,
  /** The member app (docs/members.md): a wrong, expired or spent one-time code. */
  MEMBER_CODE_WRONG: 401,
  /** The member app: too many codes asked for this contact from this address; details {retryAfterSeconds}. */
  MEMBER_CODE_LIMIT: 429,
  /** The member app: the provider's callback of a hosted payment page is not signed by it. */
  BAD_SIGNATURE: 401,
  PAYMENT_ERROR: 402,
  /** Money (docs/money.md). */
  INVALID_EXPIRATION_DATE: 400,
  PAYMENTS_DO_NOT_MATCH_TOTAL: 400,
  INVALID_BANK_DETAILS: 400,
  PAYMENT_METHOD_EXISTS: 409,
  NO_PAYMENT_METHOD: 422,
  NOT_ENOUGH_BALANCE: 422,
  CHARGE_AMOUNT_OUT_OF_RANGE: 422,
  PURCHASES_NOT_ALLOWED: 422,
  NOTHING_TO_RENEW: 422,
  /**
   * A sale or a document that needs a tax document while the club's dealer number or address is
   * missing or invalid (docs/money.md "The dealer's identity on tax documents"); details {fields}.
   */
  DEALER_IDENTITY_MISSING: 422,
  /** A console purchase line priced 0 without the explicit Free payment (issue 18); details {path}. */
  PRICE_REQUIRED: 422,
  NOTHING_TO_COLLECT: 422,
  /** Seed 001 §8 "Employee position: delete failure": users still hold the position; details {users}. */
  POSITION_IN_USE: 409,
  /** Seed 001 §5 "Attendance": the record overlaps another shift of the employee; details {id} of that record. */
  ATTENDANCE_OVERLAP: 409,
  /** Calendar rules (seed 001 §5 "Calendar feature", §8; docs/calendar.md); details {field}. */
  CALENDAR_INVALID_YEAR: 400,
  CALENDAR_INVALID_OMER_DAY: 400,
  CALENDAR_LOCATION_REQUIRED: 400,
  CALENDAR_HAVDALAH_CONFLICT: 400,
  CALENDAR_START_END_TOGETHER: 400,
  CALENDAR_UNKNOWN_LOCALE: 400,
  CALENDAR_INVALID_DATE: 400,
  CALENDAR_INVALID_OPTION: 400,
  CALENDAR_RANGE_TOO_LONG: 400,
  /** POST /Db/ExecuteSql (docs/operator.md): more than one statement. */
  SQL_MULTIPLE_STATEMENTS: 422,
  /** POST /Db/ExecuteSql: the statement is not a query (SELECT, WITH, VALUES, TABLE) or tried to write. */
  SQL_NOT_READ_ONLY: 422,
  /** POST /Db/ExecuteSql: the maintenance role may not read that table or call that function (secrets, files). */
  SQL_NOT_PERMITTED: 422,
  /** POST /Db/ExecuteSql: the maintenance connection's role is not read-only by construction; details {unsafe}. */
  SQL_NOT_CONFIGURED: 422,
  /** Sign-in: the published demo password opens an operator account only on an install holding the demo club alone. */
  DEMO_OPERATOR_OFF: 403,
  /** POST /Db/ExecuteSql: the statement ran longer than its time limit and was cancelled. */
  SQL_TIMEOUT: 422,
  /** POST /Db/ExecuteSql: the database refused the statement (syntax, unknown table); details {sqlState, message}. */
  SQL_ERROR: 422,
  /** POST /Operator/Club: a club with this externalClubId exists. */
  CLUB_EXISTS: 409,
  /** Sign-in to a club the operator disabled (docs/operator.md). */
  CLUB_DISABLED: 403,
  /** A purchase's document while its MASAV payment is not collected yet (docs/money.md "Documents"). */
  DOCUMENT_NOT_ISSUED: 409,
  /** A purchase's document when nothing was paid (Free, ₪0): it has none (docs/money.md "Nothing paid"). */
  DOCUMENT_NOT_REQUIRED: 409,
  /** Money that takes an invoice or document number while the club's history is still being written; details {day, days} (docs/demo-club.md). */
  HISTORY_BEING_WRITTEN: 409,
  /** A refund the purchase does not allow; details.reason: refunded, pending, license, spent, nothingPaid (docs/money.md "Refunds"). */
  REFUND_NOT_POSSIBLE: 409,
  /** Sending a document by e-mail without the club's invoice e-mail or SMTP settings. */
  MAIL_NOT_CONFIGURED: 409,
  /** The club's SMTP server refused or could not be reached; details.reason. */
  MAIL_SEND_FAILED: 502,
  /**
   * The front desk (docs/front-desk.md): selling an entrance the gate would refuse even when paid
   * (the group is closed now, a quota, the license…); details {status, reason} of that refusal.
   */
  ENTRANCE_REFUSED: 409,
  /** The front desk: selling an entrance the gate admits without a payment (a subscription, the balance); details {status, reason}. */
  PAYMENT_NOT_REQUIRED: 409,
  /** The front desk: a refusal no one may override (terminal not approved, client not found, rapid re-entry); details {status, reason}. */
  OVERRIDE_NOT_POSSIBLE: 409,
  /** Appointments (docs/appointments.md): the slot was taken by another booking (also under concurrency). */
  SLOT_TAKEN: 409,
  /** Appointments: the time is not a slot of the room on the group's opening windows (closed, past, too far ahead). */
  SLOT_NOT_BOOKABLE: 409,
  /** Appointments: the client's group may not book this room. */
  BOOKING_NOT_ALLOWED: 409,
  /** Appointments: the booking cannot change in its state (cancelled, already visited, not an offer). */
  BOOKING_CLOSED: 409,
  /** An erasure whose confirmation (the client's number typed again) does not match (issue 39). */
  CONFIRMATION_MISMATCH: 400,
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
