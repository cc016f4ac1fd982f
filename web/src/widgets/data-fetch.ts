//! The data fetch helper (001 s4, s8): one fetch of data a widget shows, as the states pending,
//! success and failed. A failure sets the error flag, is logged, and goes to the optional
//! handler; it never rejects, so a widget keeps what it shows without the data.

export type DataFetchState = 'pending' | 'success' | 'failed';

export interface DataFetch<T> {
  readonly state: DataFetchState;
  /** The data once it came. */
  readonly data: T | undefined;
  /** Set when the fetch failed. */
  readonly error: boolean;
  /** Settles with the data, or undefined after a failure. */
  readonly done: Promise<T | undefined>;
}

export interface DataFetchOptions {
  /** Called with the cause of a failure, after it was logged. */
  readonly onError?: (error: unknown) => void;
  /** Where the failure is logged; the console by default. */
  readonly log?: (message: string, error: unknown) => void;
}

export function fetchData<T>(load: () => Promise<T>, options: DataFetchOptions = {}): DataFetch<T> {
  const log = options.log ?? ((message: string, error: unknown) => console.error(message, error));
  let state: DataFetchState = 'pending';
  let data: T | undefined;
  const done = (async () => {
    try {
      data = await load();
      state = 'success';
      return data;
    } catch (error) {
      state = 'failed';
      log('Vitrine: fetching data failed.', error);
      options.onError?.(error);
      return undefined;
    }
  })();
  return {
    get state() {
      return state;
    },
    get data() {
      return data;
    },
    get error() {
      return state === 'failed';
    },
    done,
  };
}
