import createClient from 'openapi-fetch';
import type { paths } from './padtrack-api';

const api = createClient<paths, 'application/json'>({ baseUrl: process.env.PADTRACK_URL ?? 'http://localhost:3000' });
const { data: session, error } = await api.POST('/api/login', { body: { email: process.env.PADTRACK_EMAIL ?? '', password: process.env.PADTRACK_PASSWORD ?? '' } });
if (!session) throw new Error(error.message);
const pads = await api.GET('/api/get-pads', { params: { query: { per_page: 10 } }, headers: { Authorization: `Bearer ${session.token}` } });
if (!pads.data) throw new Error(pads.error.message);
console.log(`${pads.data.total} pads; ${session.user.first_name} sees:`);
for (const pad of pads.data.data) console.log(pad.number, pad.series_number, pad.pad_status.name, pad.route.name);
