// The client against a real reference server: every route's success and
// its typed failures, exact amounts, Idempotency-Key, and drift of the
// generated files from the served OpenAPI document.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StaykitClient, StaykitError, parseExact } from '../dist/index.js';
import { generate } from '../scripts/generate.mjs';
import { buildBrowser, browserOutput } from '../scripts/build-browser.mjs';
import { startServer } from './server.mjs';

const AMOUNT = /^-?\d+\.\d{2}$/; // EUR: two minor digits, always written

let server;
let client;

before(async () => {
  server = await startServer();
  client = new StaykitClient({ baseUrl: server.url, org: 'demo', locale: 'en' });
});

after(async () => {
  if (server) await server.stop();
});

// rejects runs fn and returns the StaykitError it must throw.
async function rejects(fn) {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof StaykitError, `want a StaykitError, got ${err}`);
    return err;
  }
  assert.fail('the call succeeded; want a StaykitError');
}

// findStay returns a stay the calendar allows: a check-in day, the nights
// free, at least the minimum stay and a day a stay may end on.
async function findStay(propertyId, skip = 0) {
  const cal = await client.availability(propertyId, { months: 6 });
  const days = cal.days;
  for (let i = 0; i < days.length; i++) {
    const d = days[i];
    if (!d.check_in || !d.available) continue;
    const n = Math.max(d.min_stay || 1, 2);
    if (i + n >= days.length) break;
    if (days.slice(i, i + n).every((x) => x.available) && days[i + n].check_out) {
      if (skip-- > 0) { i += n; continue; }
      return { check_in: d.date, check_out: days[i + n].date };
    }
  }
  throw new Error('no bookable stay in the calendar');
}

const guest = { guest_name: 'Ada Lovelace', guest_email: 'ada@example.com', guest_phone: '+33612345678', guests_count: 2, locale: 'en' };

test('parseExact keeps amounts as their exact text and other numbers as numbers', () => {
  const v = parseExact('{"total_amount": 382.10, "nights": 3, "lines": [{"amount": 0.30}], "prices": {"price": [1.10, 2]}, "x": 1.5e2}', new Set(['total_amount', 'amount', 'price']));
  assert.deepEqual(v, { total_amount: '382.10', nights: 3, lines: [{ amount: '0.30' }], prices: { price: ['1.10', '2'] }, x: 150 });
  assert.deepEqual(parseExact('{"a":"\\"x\\u00e9","b":[true,false,null]}', new Set()), { a: '"xé', b: [true, false, null] });
  assert.throws(() => parseExact('{"a":1,}', new Set()), SyntaxError);
  assert.throws(() => parseExact('{"a":1} x', new Set()), SyntaxError);
});

test('config', async () => {
  const cfg = await client.config();
  assert.equal(cfg.organization.slug, 'demo');
  assert.equal(cfg.config.currency, 'EUR');
  const err = await rejects(() => new StaykitClient({ baseUrl: server.url, org: 'nobody-here' }).config());
  assert.equal(err.status, 404);
  assert.equal(err.code, 'not_found');
  assert.ok(err.requestId, 'a 404 carries the request id');
  assert.ok(err.message.length > 0);
});

test('properties', async () => {
  const props = await client.properties();
  assert.ok(props.length > 0);
  for (const p of props) {
    assert.equal(typeof p.id, 'number');
    assert.match(p.price_from, AMOUNT, `price_from of ${p.name} is an exact string`);
  }
  const err = await rejects(() => new StaykitClient({ baseUrl: server.url, org: 'nobody-here' }).properties());
  assert.equal(err.status, 404);
  assert.equal(err.code, 'not_found');
});

test('availability', async () => {
  const [p] = await client.properties();
  const cal = await client.availability(p.id, { months: 2 });
  assert.ok(cal.days.length >= 28);
  const day = cal.days.find((d) => d.available);
  assert.match(day.price, AMOUNT);
  assert.equal(typeof day.check_in, 'boolean');
  const err = await rejects(() => client.availability(999999));
  assert.equal(err.status, 404);
  assert.equal(err.code, 'not_found');
  const bad = await rejects(() => client.availability(p.id, { months: 1000 }));
  assert.equal(bad.status, 422);
  assert.ok(bad.fieldErrors.months, `field errors ${JSON.stringify(bad.fieldErrors)} name months`);
});

test('price quote: exact amounts that add up', async () => {
  const [p] = await client.properties();
  const stay = await findStay(p.id);
  const q = await client.priceQuote(p.id, { ...stay, guests_count: 2 });
  for (const k of ['accommodation', 'total_amount', 'charge_amount', 'balance_amount']) assert.match(q[k], AMOUNT, k);
  const cents = (s) => BigInt(s.replace('.', ''));
  const sum = [...q.fees, ...q.taxes].reduce((a, l) => a + cents(l.amount), cents(q.accommodation)) - q.discounts.reduce((a, l) => a + cents(l.amount), 0n);
  assert.equal(sum, cents(q.total_amount));
  assert.equal(cents(q.charge_amount) + cents(q.balance_amount), cents(q.total_amount));

  const err = await rejects(() => client.priceQuote(p.id, { check_in: stay.check_out, check_out: stay.check_in, guests_count: 2 }));
  assert.equal(err.status, 422);
  assert.ok(Object.keys(err.fieldErrors).length > 0, 'field errors');
  assert.deepEqual(Object.keys(err.fieldCodes).sort(), Object.keys(err.fieldErrors).sort());
  const missing = await rejects(() => client.priceQuote(999999, { ...stay, guests_count: 2 }));
  assert.equal(missing.status, 404);
});

test('validate coupon', async () => {
  const [p] = await client.properties();
  const ok = await client.validateCoupon({ code: 'WELCOME10', property_id: p.id });
  assert.equal(ok.valid, true);
  const err = await rejects(() => client.validateCoupon({ code: 'EXPIRED10', property_id: p.id }));
  assert.equal(err.status, 422);
  assert.match(err.code, /^coupon_/);
  const fields = await rejects(() => client.validateCoupon({ code: '', property_id: p.id }));
  assert.equal(fields.status, 422);
  assert.ok(fields.fieldErrors.code, `field errors ${JSON.stringify(fields.fieldErrors)} name code`);
  const missing = await rejects(() => new StaykitClient({ baseUrl: server.url, org: 'nobody-here' }).validateCoupon({ code: 'WELCOME10', property_id: p.id }));
  assert.equal(missing.status, 404);
});

test('checkout, fake card, confirm and booking status', async () => {
  const [p] = await client.properties();
  const stay = await findStay(p.id, 1);
  const quote = await client.priceQuote(p.id, { ...stay, guests_count: 2 });
  const order = { property_id: p.id, ...stay, ...guest };

  const key = 'client-test-' + Date.now();
  const c = await client.checkout(order, { idempotencyKey: key });
  assert.ok(c.booking_token);
  assert.ok(c.client_secret);
  assert.equal(c.charge_amount, quote.charge_amount, 'the checkout charges the quoted amount, to the cent');
  const again = await client.checkout(order, { idempotencyKey: key });
  assert.equal(again.booking_token, c.booking_token, 'the same key replays the first answer');

  const pending = await client.booking(c.booking_token);
  assert.equal(pending.status, 'pending');
  assert.equal(pending.paid_amount, '0.00');

  const intent = c.client_secret.slice(0, c.client_secret.indexOf('_secret_'));
  const paid = await fetch(`${server.url}/fakepay/intents/${intent}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ card_number: '4242424242424242' }) });
  assert.equal(paid.status, 200);
  const confirmed = await client.confirm(c.booking_token, { payment_intent_id: intent });
  assert.equal(confirmed.status, 'confirmed');
  assert.equal(confirmed.paid_amount, quote.charge_amount);
  assert.equal((await client.booking(c.booking_token)).total_amount, quote.total_amount);

  const before = await client.checkinStatus(c.booking_token);
  assert.equal(before.country, 'FR');
  assert.equal(before.authority, 'fiche_police');
  assert.deepEqual([before.completeness.expected, before.completeness.entered], [2, 0]);
  const traveller = { given_names: 'Jonas', surname: 'Müller', birth_date: '1980-11-20', birth_place: 'Hamburg', birth_country: 'DE',
    nationality: 'DE', address: 'Unter den Linden 5', postal_code: '10117', city: 'Berlin', address_country: 'DE',
    phone: '+4915112345678', email: 'jonas@example.com' };
  const refused = await rejects(() => client.saveCheckin(c.booking_token, { guests: [{ ...traveller, email: '' }] }));
  assert.equal(refused.status, 422);
  assert.ok(refused.fieldCodes['guests.0.email']?.includes('required'), JSON.stringify(refused.fieldCodes));
  const after = await client.saveCheckin(c.booking_token, { guests: [traveller, { ...traveller, given_names: 'Lena' }] });
  assert.equal(after.completeness.complete, true);
  assert.equal(JSON.stringify(after).includes('Müller'), false, 'the guest never reads the data back');

  const thread = await client.messages(c.booking_token);
  assert.equal(thread.can_write, true);
  assert.deepEqual(thread.items, []);
  const messageKey = 'retry-' + c.booking_token;
  const sentOnce = await client.postMessage(c.booking_token, 'Can we arrive at <b>23:00</b>?', { idempotencyKey: messageKey });
  const sentAgain = await client.postMessage(c.booking_token, 'Can we arrive at <b>23:00</b>?', { idempotencyKey: messageKey });
  assert.equal(sentAgain.id, sentOnce.id, 'a retry with its key stores one message');
  assert.equal(sentOnce.from, 'guest');
  assert.equal(sentOnce.body, 'Can we arrive at <b>23:00</b>?');
  assert.equal((await client.messages(c.booking_token)).items.length, 1);
  const blank = await rejects(() => client.postMessage(c.booking_token, '   '));
  assert.equal(blank.status, 422);
  assert.ok(blank.fieldCodes.body?.includes('required'), JSON.stringify(blank.fieldCodes));

  const missing = await rejects(() => client.booking('no-such-token'));
  assert.equal(missing.status, 404);
  assert.equal(missing.code, 'not_found');
  const notConfirmed = await rejects(() => client.confirm('no-such-token'));
  assert.equal(notConfirmed.status, 404);
});

test('checkout sends a fresh Idempotency-Key by default', async () => {
  const seen = [];
  const spy = new StaykitClient({
    baseUrl: server.url, org: 'demo',
    fetch: (url, init) => { seen.push(init.headers['Idempotency-Key']); return fetch(url, init); },
  });
  const bad = { property_id: 999999, check_in: '2030-01-01', check_out: '2030-01-05', ...guest };
  await rejects(() => spy.checkout(bad));
  await rejects(() => spy.checkout(bad));
  assert.equal(seen.length, 2);
  assert.match(seen[0], /^[0-9a-f]{32}$/);
  assert.notEqual(seen[0], seen[1]);
});

test('checkout: 422 with field errors', async () => {
  const [p] = await client.properties();
  const stay = await findStay(p.id);
  const err = await rejects(() => client.checkout({ property_id: p.id, ...stay, ...guest, guest_email: 'not-an-email' }));
  assert.equal(err.status, 422);
  assert.ok(err.fieldErrors.guest_email?.length, `field errors ${JSON.stringify(err.fieldErrors)}`);
  assert.ok(err.fieldCodes.guest_email?.length, `field codes ${JSON.stringify(err.fieldCodes)}`);
  assert.equal(err.retryAfter, null);
});

// Last: it spends the checkout rate limit (10 a minute).
test('checkout: 429 with Retry-After', async () => {
  const order = { property_id: 999999, check_in: '2030-01-01', check_out: '2030-01-05', ...guest };
  let err;
  for (let i = 0; i < 20; i++) {
    err = await rejects(() => client.checkout(order));
    if (err.status === 429) break;
  }
  assert.equal(err.status, 429);
  assert.equal(err.code, 'rate_limited');
  assert.ok(Number.isInteger(err.retryAfter) && err.retryAfter >= 1, `retryAfter = ${err.retryAfter}`);
  assert.ok(err.requestId);
});

test('a refused origin is a typed 403', async () => {
  // As a browser on a site the organisation does not allow would send it.
  const elsewhere = new StaykitClient({
    baseUrl: server.url, org: 'demo', locale: 'en',
    fetch: (url, init) => fetch(url, { ...init, headers: { ...init.headers, Origin: 'https://elsewhere.example' } }),
  });
  const err = await rejects(() => elsewhere.properties());
  assert.equal(err.status, 403);
  assert.equal(err.code, 'origin_not_allowed');
});

test('the network failure is a typed error', async () => {
  const err = await rejects(() => new StaykitClient({ baseUrl: 'http://127.0.0.1:1', org: 'demo' }).config());
  assert.equal(err.status, 0);
  assert.equal(err.code, 'network_error');
});

test('generated files match the served OpenAPI document', async () => {
  const files = await generate(server.url + '/api/v1/openapi.json');
  const src = new URL('../src/', import.meta.url);
  const dir = mkdtempSync(path.join(tmpdir(), 'staykit-generated-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      writeFileSync(path.join(dir, name), text);
      const fresh = readFileSync(path.join(dir, name), 'utf8');
      const committed = readFileSync(new URL(name, src), 'utf8');
      assert.ok(committed === fresh, `src/${name} differs from the types generated from the served document: run "npm run generate" in clients/js`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.ok(readFileSync(browserOutput, 'utf8') === await buildBrowser(),
    'bookingpage/web/staykit-client.js differs from a fresh build: run "npm run build:browser" in clients/js');
});
