/** The sign-in request's schema, in its own module so that useLogin can load it after the sign-in form has drawn. */
export { LoginRequest } from '@venue/domain';
