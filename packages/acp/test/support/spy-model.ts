import type { Model, ModelRequest } from 'dsh-agent';

/** A model that records every request before its inner model answers it. */
export interface SpyModel extends Model {
  readonly requests: ModelRequest[];
}

export function spyModel(inner: Model): SpyModel {
  const requests: ModelRequest[] = [];
  return {
    id: `spy:${inner.id}`,
    requests,
    stream(request) {
      requests.push(request);
      return inner.stream(request);
    },
  };
}
