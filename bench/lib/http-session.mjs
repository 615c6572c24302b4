// A console session over real HTTP for the benchmarks that drive the server from outside.

/** Signs in over HTTP (anti-forgery cookie pair, then POST /api/Account); returns fetch headers. */
export async function signIn(base, admin) {
  const first = await fetch(`${base}/api/health`);
  const cookies = first.headers.getSetCookie().map((c) => c.split(';')[0]);
  const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))?.split('=')[1] ?? '';
  const h = { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-xsrf-token': xsrf };
  const res = await fetch(`${base}/api/Account`, { method: 'POST', headers: h, body: JSON.stringify(admin) });
  const { token } = await res.json();
  return { ...h, authorization: `Bearer ${token}` };
}
