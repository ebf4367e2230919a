/**
 * JSON written straight into a growing UTF-8 buffer, for the bulk export's pages of thousands
 * of items: building them as objects, then a string, then bytes costs several times more
 * (objects, a rope of small strings to flatten, and the UTF-8 pass when sending).
 *
 * The caller writes the punctuation and keys itself (`ascii`), values with the typed methods.
 * The bytes are exactly JSON.stringify's for the same values: strings escaped by
 * JSON.stringify whenever they hold anything but plain printable ASCII, numbers as String()
 * writes them, dates as Date#toISOString.
 */
export class JsonWriter {
  private buf: Buffer;
  private pos = 0;

  constructor(capacity = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(capacity);
  }

  private room(n: number): Buffer {
    if (this.pos + n > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
      this.buf.copy(next, 0, 0, this.pos);
      this.buf = next;
    }
    return this.buf;
  }

  /** Text known to be ASCII and JSON already: punctuation, keys, literals. */
  ascii(text: string): this {
    const n = text.length;
    const buf = this.room(n);
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = text.charCodeAt(i);
    this.pos = p;
    return this;
  }

  /** Any JSON text (e.g. a stored JSON value, or JSON.stringify's output). */
  json(text: string): this {
    this.room(text.length * 3);
    this.pos += this.buf.write(text, this.pos, 'utf8');
    return this;
  }

  /** Bytes already encoded (e.g. a fragment shared by many items). */
  bytes(bytes: Uint8Array): this {
    this.room(bytes.length).set(bytes, this.pos);
    this.pos += bytes.length;
    return this;
  }

  num(n: number | null): this {
    if (n === null) return this.ascii('null');
    // Ids, counts and epoch ms digit by digit; anything else as String() writes it.
    if (!(n >= 0 && n <= Number.MAX_SAFE_INTEGER && Number.isInteger(n)))
      return this.ascii(Number.isFinite(n) ? String(n) : 'null');
    let digits = 1;
    for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
    const buf = this.room(digits);
    let v = n;
    for (let p = this.pos + digits - 1; p >= this.pos; p--) {
      buf[p] = 48 + (v % 10);
      v = Math.floor(v / 10);
    }
    this.pos += digits;
    return this;
  }

  bool(b: boolean): this {
    return this.ascii(b ? 'true' : 'false');
  }

  /** A JSON string, or null. */
  str(s: string | null): this {
    if (s === null) return this.ascii('null');
    const n = s.length;
    const buf = this.room(n + 2);
    let p = this.pos;
    buf[p++] = 34;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      // Quote, backslash, control characters and anything beyond ASCII: JSON.stringify's way.
      if (c < 32 || c === 34 || c === 92 || c > 126) return this.json(JSON.stringify(s));
      buf[p++] = c;
    }
    buf[p++] = 34;
    this.pos = p;
    return this;
  }

  /** Epoch ms as Date#toISOString writes it (a JSON string), or null. */
  iso(ms: number | null): this {
    if (ms === null) return this.ascii('null');
    // Years 0000-9999 by arithmetic (no Date per value); anything else the slow way.
    if (!(ms >= MIN_ISO_MS && ms <= MAX_ISO_MS) || !Number.isInteger(ms))
      return this.ascii(`"${new Date(ms).toISOString()}"`);
    const buf = this.room(26);
    let p = this.pos;
    const days = Math.floor(ms / DAY_MS);
    let rest = ms - days * DAY_MS;
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    const z = days + 719468;
    const era = Math.floor(z / 146097);
    const doe = z - era * 146097;
    const yoe = Math.floor(
      (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
    );
    const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
    const mp = Math.floor((5 * doy + 2) / 153);
    const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
    const month = mp < 10 ? mp + 3 : mp - 9;
    const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
    const hour = Math.floor(rest / 3_600_000);
    rest -= hour * 3_600_000;
    const minute = Math.floor(rest / 60_000);
    rest -= minute * 60_000;
    const second = Math.floor(rest / 1000);
    const milli = rest - second * 1000;
    buf[p++] = 34;
    buf[p++] = 48 + Math.floor(year / 1000);
    buf[p++] = 48 + (Math.floor(year / 100) % 10);
    buf[p++] = 48 + (Math.floor(year / 10) % 10);
    buf[p++] = 48 + (year % 10);
    buf[p++] = 45;
    buf[p++] = 48 + Math.floor(month / 10);
    buf[p++] = 48 + (month % 10);
    buf[p++] = 45;
    buf[p++] = 48 + Math.floor(day / 10);
    buf[p++] = 48 + (day % 10);
    buf[p++] = 84;
    buf[p++] = 48 + Math.floor(hour / 10);
    buf[p++] = 48 + (hour % 10);
    buf[p++] = 58;
    buf[p++] = 48 + Math.floor(minute / 10);
    buf[p++] = 48 + (minute % 10);
    buf[p++] = 58;
    buf[p++] = 48 + Math.floor(second / 10);
    buf[p++] = 48 + (second % 10);
    buf[p++] = 46;
    buf[p++] = 48 + Math.floor(milli / 100);
    buf[p++] = 48 + (Math.floor(milli / 10) % 10);
    buf[p++] = 48 + (milli % 10);
    buf[p++] = 90;
    buf[p++] = 34;
    this.pos = p;
    return this;
  }

  /** What was written (a view of the buffer: the writer must not be used afterwards). */
  done(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z. */
const MIN_ISO_MS = -62_167_219_200_000;
const MAX_ISO_MS = 253_402_300_799_999;
