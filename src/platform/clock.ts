/** The one clock. Services take a `Clock` so that expiry can be tested without sleeping. */
export type Clock = () => number;

export const systemClock: Clock = () => Date.now();
