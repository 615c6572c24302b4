import { ERROR_STATUS, type ErrorCode } from '@venue/domain';

/**
 * A business or request error with a catalogue code (STYLE point 8). The
 * HTTP status comes from the code's entry in ERROR_STATUS unless given.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: unknown,
    status?: number,
  ) {
    super(message ?? code);
    this.status = status ?? ERROR_STATUS[code];
  }
}

export const notFound = (what = 'resource') => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = () => new AppError('NOT_AUTHORIZED', 'You are not authorized');
