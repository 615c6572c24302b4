import { describeRouteFuzz } from '../../test/route-fuzz.js';

/** Shard 2 of 2 of the route fuzz (test/route-fuzz.ts): every route, every malformed field, never a 5xx. */
describeRouteFuzz(1, 2);
