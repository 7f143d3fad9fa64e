/** The answer envelope of SPEC §7 (DESIGN.md §5). */
export interface OkEnvelope<T> {
  result: 'ok';
  code: 0;
  data: T;
}

export interface FailEnvelope {
  result: 'fail';
  code: number;
  errno: number;
  /** catalogue key, e.g. `bad_credentials` */
  error: string;
  /** localised message */
  msg: string;
  errData?: Record<string, unknown>;
}

export type Envelope<T> = OkEnvelope<T> | FailEnvelope;
