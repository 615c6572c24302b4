/** The sign-in request's schema, in its own module so that useLogin can load it on the first submit. */
export { LoginRequest } from '@venue/domain';
