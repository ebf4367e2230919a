/** The server's clock: real time plus an offset that tests move through the admin route. */
export interface Clock {
  now(): number;
  setOffset(ms: number): void;
  offset(): number;
}

export const createClock = (base: () => number = Date.now): Clock => {
  let offsetMs = 0;
  return {
    now: () => base() + offsetMs,
    setOffset: (ms) => {
      offsetMs = ms;
    },
    offset: () => offsetMs,
  };
};
