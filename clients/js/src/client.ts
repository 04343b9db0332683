// A thin, typed wrapper of fetch over the staykit booking API v1: one
// method per public route, the envelope unwrapped into its data or thrown as
// a StaykitError.
import type { components, operations } from './schema.js';
import { amountKeys } from './amounts.js';
import { parseExact } from './json.js';

type Schemas = components['schemas'];
/** An amount in the currency's minor units, as its exact decimal text: "382.00". */
export type Amount = Schemas['Amount'];
/** The organisation and its booking rules (GET /api/v1/book/{org}). */
export type OrgConfig = Schemas['Config'];
/** A bookable property. */
export type Property = Schemas['Property'];
/** A property's availability calendar. */
export type Calendar = Schemas['Calendar'];
/** One day of a calendar. */
export type Day = Schemas['Day'];
/** A price quote. */
export type Quote = Schemas['Quote'];
/** The body of validateCoupon. */
export type CouponCheck = Schemas['CouponCheck'];
/** The answer of validateCoupon. */
export type CouponValidation = Schemas['CouponValidation'];
/** The body of checkout. */
export type CheckoutRequest = Schemas['CheckoutRequest'];
/** The answer of checkout. */
export type CheckoutResult = Schemas['CheckoutResult'];
/** The body of confirm. */
export type ConfirmRequest = Schemas['ConfirmRequest'];
/** A booking's status. */
export type BookingStatus = Schemas['BookingStatus'];
/** A booking's online check-in as its guest sees it: how complete, never the data. */
export type CheckinStatus = Schemas['CheckinStatus'];
/** The body of saveCheckin: the guests' identity data. */
export type CheckinInput = Schemas['CheckinInput'];
/** The messages between a booking's guest and the host, and whether the guest may write. */
export type BookingMessages = Schemas['BookingMessages'];
/** A message between a booking's guest and the host: plain text, to show as text. */
export type BookingMessage = Schemas['BookingMessage'];
/** The body of quoteChange and changeBooking: the new dates and party. */
export type ChangeRequest = Schemas['ChangeRequest'];
/** What a change of dates or party would do. */
export type ChangeOffer = Schemas['ChangeOffer'];
/** A change of dates or party and where it stands. */
export type BookingChange = Schemas['Change'];
/** A booking's payment schedule. */
export type Payments = Schemas['Payments'];
/** The query of availability. */
export type AvailabilityQuery = Omit<NonNullable<operations['getAvailability']['parameters']['query']>, 'locale'>;
/** The query of priceQuote. */
export type PriceQuery = Omit<operations['getPrice']['parameters']['query'], 'locale'>;

/** Options of a StaykitClient. */
export interface ClientOptions {
  /** Where the server is, e.g. "https://book.example.com": paths start with /api/v1. */
  baseUrl: string;
  /** The organisation's slug. */
  org: string;
  /** Language of error messages ("fr" or "en"); the server's choice when unset. */
  locale?: string;
  /** The fetch to use; globalThis.fetch by default. */
  fetch?: typeof fetch;
}

/** Options of one call. */
export interface CallOptions {
  /** Language of this call's messages, instead of the client's. */
  locale?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Options of the calls that take an Idempotency-Key. */
export interface IdempotentCallOptions extends CallOptions {
  /**
   * The Idempotency-Key: the same key with the same body returns the first
   * answer. checkout makes a random one per call when unset; reuse one to
   * retry an order safely.
   */
  idempotencyKey?: string;
}

/**
 * A failed call: the API's envelope (status, code, translated message,
 * field errors) or, with status 0 and code "network_error", no answer at
 * all (the server is unreachable, or a browser refused the answer: CORS).
 */
export class StaykitError extends Error {
  /** The HTTP status; 0 when no answer was read. */
  readonly status: number;
  /** The machine code: "not_found", "validation_error", "rate_limited", …, or "network_error", "invalid_response". */
  readonly code: string;
  /** The translated messages of each invalid field ({} when none). */
  readonly fieldErrors: Record<string, string[]>;
  /** The same problems as machine codes ({} when none). */
  readonly fieldCodes: Record<string, string[]>;
  /** Seconds to wait before retrying (Retry-After), else null. */
  readonly retryAfter: number | null;
  /** The server's X-Request-ID, to quote to its operator, else null. */
  readonly requestId: string | null;

  constructor(init: {
    status: number; code: string; message: string;
    fieldErrors?: Record<string, string[]>; fieldCodes?: Record<string, string[]>;
    retryAfter?: number | null; requestId?: string | null; cause?: unknown;
  }) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'StaykitError';
    this.status = init.status;
    this.code = init.code;
    this.fieldErrors = init.fieldErrors ?? {};
    this.fieldCodes = init.fieldCodes ?? {};
    this.retryAfter = init.retryAfter ?? null;
    this.requestId = init.requestId ?? null;
  }
}

const amounts: ReadonlySet<string> = new Set(amountKeys);

/** parseJSON parses an API answer, keeping amounts as exact strings. */
export function parseJSON(text: string): unknown {
  return parseExact(text, amounts);
}

/** randomKey returns 32 random hex digits (works outside secure contexts too). */
export function randomKey(): string {
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/** The booking API of one organisation. */
export class StaykitClient {
  readonly baseUrl: string;
  readonly org: string;
  locale: string | undefined;
  private readonly fetchFn: typeof fetch;

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.org = opts.org;
    this.locale = opts.locale;
    this.fetchFn = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** GET /api/v1/book/{org}: the organisation and its booking rules. */
  config(opts?: CallOptions): Promise<OrgConfig> {
    return this.call('GET', '', undefined, opts);
  }

  /** GET /api/v1/book/{org}/properties: the bookable properties. */
  properties(opts?: CallOptions): Promise<Property[]> {
    return this.call('GET', '/properties', undefined, opts);
  }

  /** GET /api/v1/book/{org}/properties/{id}/availability: the calendar, with each day's flags and price. */
  availability(propertyId: number, query?: AvailabilityQuery, opts?: CallOptions): Promise<Calendar> {
    return this.call('GET', `/properties/${encodeURIComponent(propertyId)}/availability${qs(query)}`, undefined, opts);
  }

  /** GET /api/v1/book/{org}/properties/{id}/price: the quote of a stay. */
  priceQuote(propertyId: number, query: PriceQuery, opts?: CallOptions): Promise<Quote> {
    return this.call('GET', `/properties/${encodeURIComponent(propertyId)}/price${qs(query)}`, undefined, opts);
  }

  /** POST /api/v1/book/{org}/validate-coupon: whether a coupon applies. */
  validateCoupon(body: CouponCheck, opts?: CallOptions): Promise<CouponValidation> {
    return this.call('POST', '/validate-coupon', body, opts);
  }

  /**
   * POST /api/v1/book/{org}/checkout: holds the dates and creates the
   * payment. It always sends an Idempotency-Key: opts.idempotencyKey, else a
   * random one.
   */
  checkout(body: CheckoutRequest, opts?: IdempotentCallOptions): Promise<CheckoutResult> {
    return this.call('POST', '/checkout', body, opts, opts?.idempotencyKey ?? randomKey());
  }

  /** GET /api/v1/book/{org}/booking/{token}: the booking's status. */
  booking(token: string, opts?: CallOptions): Promise<BookingStatus> {
    return this.call('GET', `/booking/${encodeURIComponent(token)}`, undefined, opts);
  }

  /** POST /api/v1/book/{org}/booking/{token}/confirm: checks the payment and answers the status. */
  confirm(token: string, body: ConfirmRequest = {}, opts?: IdempotentCallOptions): Promise<BookingStatus> {
    return this.call('POST', `/booking/${encodeURIComponent(token)}/confirm`, body, opts, opts?.idempotencyKey);
  }

  /** GET /api/v1/book/{org}/booking/{token}/checkin: how far the online check-in is, and the fields the property's country asks. */
  checkinStatus(token: string, opts?: CallOptions): Promise<CheckinStatus> {
    return this.call('GET', `/booking/${encodeURIComponent(token)}/checkin`, undefined, opts);
  }

  /** POST /api/v1/book/{org}/booking/{token}/checkin: replaces the guests' identity data and answers the completeness. */
  saveCheckin(token: string, body: CheckinInput, opts?: CallOptions): Promise<CheckinStatus> {
    return this.call('POST', `/booking/${encodeURIComponent(token)}/checkin`, body, opts);
  }

  /** GET /api/v1/book/{org}/booking/{token}/messages: the thread between the guest and the host, oldest first. */
  messages(token: string, opts?: CallOptions): Promise<BookingMessages> {
    return this.call('GET', `/booking/${encodeURIComponent(token)}/messages`, undefined, opts);
  }

  /**
   * POST /api/v1/book/{org}/booking/{token}/messages: writes to the host as
   * the guest (plain text, e-mailed to the host). It always sends an
   * Idempotency-Key: opts.idempotencyKey, else a random one; reuse one to
   * retry a message safely.
   */
  postMessage(token: string, body: string, opts?: IdempotentCallOptions): Promise<BookingMessage> {
    return this.call('POST', `/booking/${encodeURIComponent(token)}/messages`, { body }, opts, opts?.idempotencyKey ?? randomKey());
  }

  /** POST /api/v1/book/{org}/booking/{token}/change/quote: what changing the stay would cost or give back; nothing is written. */
  quoteChange(token: string, body: ChangeRequest, opts?: CallOptions): Promise<ChangeOffer> {
    return this.call('POST', `/booking/${encodeURIComponent(token)}/change/quote`, body, opts);
  }

  /** POST /api/v1/book/{org}/booking/{token}/change: changes the stay (or asks the host to). */
  changeBooking(token: string, body: ChangeRequest, opts?: CallOptions): Promise<BookingChange> {
    return this.call('POST', `/booking/${encodeURIComponent(token)}/change`, body, opts);
  }

  /** GET /api/v1/book/{org}/booking/{token}/change: the latest change, settled if its payment was completed. */
  bookingChange(token: string, opts?: CallOptions): Promise<BookingChange> {
    return this.call('GET', `/booking/${encodeURIComponent(token)}/change`, undefined, opts);
  }

  /** GET /api/v1/book/{org}/booking/{token}/payments: what was paid and refunded, and what is due when. */
  payments(token: string, opts?: CallOptions): Promise<Payments> {
    return this.call('GET', `/booking/${encodeURIComponent(token)}/payments`, undefined, opts);
  }

  private async call<T>(method: string, path: string, body: unknown, opts?: CallOptions, idempotencyKey?: string): Promise<T> {
    const locale = opts?.locale ?? this.locale;
    let url = `${this.baseUrl}/api/v1/book/${encodeURIComponent(this.org)}${path}`;
    if (locale) url += (url.includes('?') ? '&' : '?') + 'locale=' + encodeURIComponent(locale);
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let res: Response;
    let text: string;
    try {
      res = await this.fetchFn(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal: opts?.signal });
      text = await res.text();
    } catch (err) {
      if ((err as { name?: string })?.name === 'AbortError') throw err;
      throw new StaykitError({ status: 0, code: 'network_error', message: `${method} ${url}: no answer`, cause: err });
    }
    const requestId = res.headers.get('X-Request-ID');
    let env: { success?: unknown; data?: unknown; code?: unknown; message?: unknown; errors?: unknown; field_codes?: unknown } | null = null;
    try {
      const v = parseJSON(text);
      if (v && typeof v === 'object' && !Array.isArray(v)) env = v;
    } catch {
      env = null;
    }
    if (res.ok && env && env.success === true) return env.data as T;
    const retry = Number.parseInt(res.headers.get('Retry-After') ?? '', 10);
    throw new StaykitError({
      status: res.status,
      code: env && typeof env.code === 'string' ? env.code : 'invalid_response',
      message: env && typeof env.message === 'string' ? env.message : `${method} ${url}: HTTP ${res.status}`,
      fieldErrors: (env?.errors ?? undefined) as Record<string, string[]> | undefined,
      fieldCodes: (env?.field_codes ?? undefined) as Record<string, string[]> | undefined,
      retryAfter: Number.isFinite(retry) ? retry : null,
      requestId,
    });
  }
}

function qs(query: object | undefined): string {
  if (!query) return '';
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') p.set(k, String(v));
  const s = p.toString();
  return s ? '?' + s : '';
}
