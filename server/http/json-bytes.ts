/**
 * An answer's `data` already serialized: JSON as UTF-8 bytes. A handler that builds big
 * answers itself (the bulk export) returns this, and the route wrapper puts the bytes in the
 * envelope as they are, serializing nothing twice. `T` is the shape the JSON holds (checked
 * like any answer when the server checks its answers).
 */
export class JsonBytes<T = unknown> {
  declare readonly shape?: T;
  constructor(readonly bytes: Buffer) {}

  /** The value the JSON holds. */
  parse(): T {
    return JSON.parse(this.bytes.toString('utf8')) as T;
  }
}
